/** The spec as the JSON file other tools read (`spec/openapi.json`), byte for byte. */
import { openapi } from './openapi.js';

export function renderSpecJson(): string {
  return JSON.stringify(openapi, null, 2) + '\n';
}
