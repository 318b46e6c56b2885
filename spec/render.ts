/** The specs as the JSON files other tools read (`spec/openapi.json`, `spec/control-openapi.json`), byte for byte. */
import { controlOpenapi } from './control-openapi.js';
import { openapi } from './openapi.js';

export function renderSpecJson(): string {
  return `${JSON.stringify(openapi, null, 2)}\n`;
}

export function renderControlSpecJson(): string {
  return `${JSON.stringify(controlOpenapi, null, 2)}\n`;
}
