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

/**
 * A Location the upstream gave, as the client must see it to stay behind the
 * proxy (as nginx's proxy_redirect does by default): on the upstream's origin,
 * it names the proxy's origin (`proxyOrigin`, from the request's Host), and the
 * upstream's base path becomes the proxy's. Any other value is left as it is.
 */
export function clientLocation(value: string, upstream: URL, basePath: string, proxyOrigin: string): string {
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  const onOrigin = value.startsWith(`${upstream.origin}/`) || value === upstream.origin;
  const path = onOrigin ? value.slice(upstream.origin.length) || '/' : value;
  if (!onOrigin && !path.startsWith('/')) return value;
  const next = path.charAt(upstreamBase.length);
  const inside = path.startsWith(upstreamBase) && (next === '' || next === '/' || next === '?' || next === '#');
  const mapped = inside ? `${basePath}${path.slice(upstreamBase.length)}` || '/' : path;
  return onOrigin ? `${proxyOrigin}${mapped}` : mapped;
}
