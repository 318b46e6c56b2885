/**
 * Where the runner finds each family's checks: one builder per family of
 * FAMILY_TABLE (types.ts), keyed by its id, so a family without a builder
 * does not compile.
 */
import type { Check, CheckContext, Family } from '../vocabulary.js';
import { authChecks } from './auth.js';
import { concurrencyChecks } from './concurrency.js';
import { deprecationChecks } from './deprecation.js';
import { httpChecks } from './http.js';
import { invariantsChecks } from './invariants.js';
import { jsonChecks } from './json.js';
import { leaksChecks } from './leaks.js';
import { limitsChecks } from './limits.js';
import { mediaTypeChecks } from './media-types.js';
import { notFoundChecks } from './not-found.js';
import { routesChecks } from './routes.js';
import { stateChecks } from './state.js';
import { validationChecks } from './validation.js';

export const CHECK_BUILDERS: Record<Family, (ctx: CheckContext) => Check[]> = {
  auth: authChecks,
  validation: validationChecks,
  limits: limitsChecks,
  'not-found': notFoundChecks,
  deprecation: deprecationChecks,
  // Judged from every answer of the run, whoever asked: its checks are the
  // response judge's outcomes (checks/responses.ts), one per operation.
  responses: () => [],
  state: stateChecks,
  routes: routesChecks,
  'media-types': mediaTypeChecks,
  concurrency: concurrencyChecks,
  leaks: leaksChecks,
  http: httpChecks,
  json: jsonChecks,
  invariants: invariantsChecks,
  // The oracle's one check is the runner's, when a run has an oracle (differential/mirror.ts).
  oracle: () => [],
};
