import type { Check, CheckContext } from '../types.js';

export function concurrencyChecks(_ctx: CheckContext): Check[] {
  return [];
}
