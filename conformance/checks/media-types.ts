import type { Check, CheckContext } from '../types.js';

export function mediaTypeChecks(_ctx: CheckContext): Check[] {
  return [];
}
