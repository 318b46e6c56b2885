#!/usr/bin/env node
// Regenerates spec/openapi.json and spec/control-openapi.json from their TypeScript sources
// (run `npm run build` first; `npm run spec:json` does both).
import { writeFileSync } from 'node:fs';
import { renderControlSpecJson, renderSpecJson } from '../dist/spec/render.js';

writeFileSync(new URL('../spec/openapi.json', import.meta.url), renderSpecJson());
writeFileSync(new URL('../spec/control-openapi.json', import.meta.url), renderControlSpecJson());
console.log('wrote spec/openapi.json and spec/control-openapi.json');
