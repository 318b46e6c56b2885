#!/usr/bin/env node
// Regenerates spec/openapi.json from spec/openapi.ts (run `npm run build` first; `npm run spec:json` does both).
import { writeFileSync } from 'node:fs';
import { renderSpecJson } from '../dist/spec/render.js';

writeFileSync(new URL('../spec/openapi.json', import.meta.url), renderSpecJson());
console.log('wrote spec/openapi.json');
