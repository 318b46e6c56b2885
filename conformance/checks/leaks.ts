import type { Check, CheckContext } from '../types.js';

export function leaksChecks(_ctx: CheckContext): Check[] {
  return [];
}
