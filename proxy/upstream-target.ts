/**
 * Where a request to the proxy goes at the upstream: the interface's base
 * path at the proxy is replaced by the upstream's (`/v1/pets` to
 * `/api/v1/pets` when the upstream is `https://host/api/v1`); a target
 * outside the interface (`/health`) goes to the upstream's origin as it is.
 */

export interface UpstreamTarget {
  /** The path and query at the upstream's origin. */
  readonly path: string;
  /** The target is outside the interface's base path. */
  readonly outside: boolean;
  /** The target relative to the base path (`/pets?limit=5`); the whole target when outside it. */
  readonly relative: string;
}

export function upstreamTarget(target: string, basePath: string, upstream: URL): UpstreamTarget {
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  const next = target.charAt(basePath.length);
  const inside = target.startsWith(basePath) && (next === '' || next === '/' || next === '?');
  if (!inside) return { path: target, outside: true, relative: target };
  const relative = target.slice(basePath.length);
  return { path: `${upstreamBase}${relative}` || '/', outside: false, relative };
}
