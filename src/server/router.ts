/**
 * Routes built from the spec's paths: a request path (below the base path) is
 * matched against each path template, literal segments exactly and
 * `{param}` segments as one percent-decoded segment.
 */
import type { OperationDescriptor } from '../../spec/operations.js';

type Segment = { readonly literal: string } | { readonly param: string };

export interface Route {
  readonly template: string;
  readonly segments: readonly Segment[];
  /** Operations by method; HEAD is answered by the GET operation. */
  readonly operations: ReadonlyMap<string, OperationDescriptor>;
  /** The `Allow` header for this path. */
  readonly allow: string;
  /** A template without parameters, matched by comparing whole paths. */
  readonly literal?: { readonly path: string; readonly match: RouteMatch };
}

export type RouteMatch =
  | {
      found: true;
      route: Route;
      params: Record<string, string>;
      /** A `{param}` segment that is not valid percent-encoding. The path still
       * names this route, so the handler refuses it as a parameter only after
       * authentication, like any other invalid parameter. */
      badEncoding?: string;
    }
  | { found: false };

export function buildRoutes(operations: readonly OperationDescriptor[]): Route[] {
  const byPath = new Map<string, OperationDescriptor[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath].map(([template, ops]) => {
    const methods = new Map(ops.map((op) => [op.method as string, op]));
    const get = methods.get('GET');
    if (get) methods.set('HEAD', get);
    const segments = template
      .split('/')
      .slice(1)
      .map((s): Segment => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
    const route: { -readonly [K in keyof Route]: Route[K] } = { template, segments, operations: methods, allow: [...methods.keys(), 'OPTIONS'].join(', ') };
    // Nothing reads or changes a match's params, so one frozen match serves every request.
    if (segments.every((s) => 'literal' in s)) route.literal = { path: template, match: Object.freeze({ found: true, route, params: Object.freeze({}) }) };
    return route;
  });
}

const NOT_FOUND: RouteMatch = Object.freeze({ found: false });

/**
 * Finds the route of `path` below the base path, which ends at `from` (the
 * path from there on starts with `/`). Segments are read in place, without
 * splitting the path: this runs for every request.
 */
export function matchRoute(routes: readonly Route[], path: string, from = 0): RouteMatch {
  for (const route of routes) {
    if (route.literal) {
      if (path.length - from === route.literal.path.length && path.startsWith(route.literal.path, from)) return route.literal.match;
      continue;
    }
    const match = matchTemplate(route, path, from);
    if (match) return match;
  }
  return NOT_FOUND;
}

function matchTemplate(route: Route, path: string, from: number): RouteMatch | undefined {
  const params: Record<string, string> = {};
  let badEncoding: string | undefined;
  let at = from;
  for (const segment of route.segments) {
    if (path.charCodeAt(at) !== 0x2f /* / */) return undefined;
    const start = at + 1;
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if ('literal' in segment) {
      if (end - start !== segment.literal.length || !path.startsWith(segment.literal, start)) return undefined;
    } else {
      if (end === start) return undefined;
      const part = path.slice(start, end);
      if (!part.includes('%')) params[segment.param] = part;
      else {
        try {
          params[segment.param] = decodeURIComponent(part);
        } catch {
          badEncoding ??= segment.param;
        }
      }
    }
    at = end;
  }
  if (at !== path.length) return undefined;
  return badEncoding === undefined ? { found: true, route, params } : { found: true, route, params, badEncoding };
}
