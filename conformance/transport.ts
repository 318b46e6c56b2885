/**
 * How the suite reaches a target that is not a process on loopback: through
 * the proxy the environment names (as curl reads it), with an extra CA, a
 * client certificate, or without verifying the certificate at all when the
 * user says so. One dispatcher per run, for the run's one origin.
 */
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { type ConnectionOptions, rootCertificates } from 'node:tls';
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';

export interface TlsOptions {
  /** PEM text of CAs to trust besides Node's own (and NODE_EXTRA_CA_CERTS). */
  readonly ca?: string;
  /** PEM text of a client certificate and its key, presented to a target that asks (mTLS). */
  readonly cert?: string;
  readonly key?: string;
  /** Skip certificate verification (said in every report). */
  readonly insecure?: boolean;
}

export interface TransportOptions {
  readonly tls?: TlsOptions;
  /** The environment the proxy settings are read from (process.env by default). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What `tls.connect` needs for the target: the CA, the client certificate, verification. */
export function tlsConnectOptions(tls: TlsOptions = {}): ConnectionOptions {
  return {
    // An extra CA adds to Node's own list rather than replacing it.
    ...(tls.ca ? { ca: [...rootCertificates, ...extraCertificates(), tls.ca] } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    ...(tls.insecure ? { rejectUnauthorized: false } : {}),
  };
}

/**
 * The proxy for `target`, as curl chooses it: `http_proxy` (or `HTTP_PROXY`)
 * for http, `https_proxy` (or `HTTPS_PROXY`) for https, then `all_proxy`,
 * unless `no_proxy` names the host. The lower-case name wins where both are
 * set. A proxy written without a scheme is http://.
 */
export function proxyFor(target: URL, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  // An empty variable counts as unset, as for curl: `https_proxy=` does not hide HTTPS_PROXY.
  const read = (name: string) => env[name.toLowerCase()]?.trim() || env[name.toUpperCase()]?.trim() || undefined;
  const proxy = (target.protocol === 'https:' ? read('https_proxy') : read('http_proxy')) ?? read('all_proxy');
  if (!proxy) return undefined;
  if (bypasses(target, read('no_proxy') ?? '')) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/**
 * `no_proxy`: comma-separated host names (a name also covers its subdomains;
 * a leading dot or `*.` changes nothing), IP addresses or CIDR blocks, each
 * optionally with `:port`; `*` alone bypasses every proxy.
 */
export function bypasses(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const [name, entryPort] = bracketed ? [bracketed[1]!, bracketed[2]] : entry.includes('/') || isIP(entry) === 6 ? [entry, undefined] : entry.split(':');
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name!.includes('/')) {
      if (inCidr(host, name!)) return true;
      continue;
    }
    // Addresses compare as addresses (2001:DB8:0:0::1 is 2001:db8::1), never as the end of a name.
    if (isIP(name!)) {
      if (isIP(host) && inCidr(host, `${name}/${isIP(name!) === 6 ? 128 : 32}`)) return true;
      continue;
    }
    const domain = name!.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** Whether `host` (an address) is in the block; an entry that is not a block (a prefix out of range, none at all) matches nothing. */
function inCidr(host: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const family = isIP(network ?? '');
  if (!family || isIP(host) !== family) return false;
  if (!/^\d{1,3}$/.test(bits ?? '') || Number(bits) > (family === 6 ? 128 : 32)) return false;
  const list = new BlockList();
  list.addSubnet(network!, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
  return list.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

/** The proxy as a report names it: its credentials left out. */
export function describeProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    url.username = '';
    url.password = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return proxy.replace(/\/\/[^@/]*@/, '//');
  }
}

export interface Transport {
  readonly dispatcher: Dispatcher;
  /** The proxy requests go through, credentials left out; undefined when direct. */
  readonly proxy?: string;
}

/** Why `proxy` cannot be used (socks and other schemes are not offered), or undefined when it can. */
export function proxyProblem(proxy: string): string | undefined {
  let scheme: string;
  try {
    scheme = new URL(proxy).protocol;
  } catch {
    return `the proxy ${describeProxy(proxy)} is not a URL`;
  }
  return scheme === 'http:' || scheme === 'https:' ? undefined : `the proxy ${describeProxy(proxy)} is not an http: or https: proxy`;
}

/**
 * The dispatcher for a run against `target`. Through an http: proxy, an http
 * target is asked in absolute form (a forward proxy, as curl does; many
 * proxies allow CONNECT to port 443 only); an https target, or any target
 * through an https: proxy, goes through a CONNECT tunnel (undici tunnels to an
 * https: proxy whatever the target), with TLS to an https target inside it.
 */
export function createTransport(target: URL, agent: Agent.Options, options: TransportOptions = {}): Transport {
  const tls = tlsConnectOptions(options.tls);
  const proxy = proxyFor(target, options.env ?? process.env);
  if (!proxy) return { dispatcher: new Agent({ ...agent, connect: { ...agent.connect, ...tls } }) };
  const problem = proxyProblem(proxy);
  if (problem) throw new Error(problem);
  // undici builds the proxy's own connections and the forwarding pool without the agent's timeouts: given here, so
  // --timeout holds for a proxy that accepts a connection and never answers.
  const timeouts = { headersTimeout: agent.headersTimeout, bodyTimeout: agent.bodyTimeout, connectTimeout: agent.connectTimeout };
  const pool = (origin: string | URL, options: Pool.Options) => new Pool(origin, { ...options, ...timeouts });
  const tunnel = target.protocol === 'https:';
  const dispatcher = new ProxyAgent({ ...agent, uri: proxy, requestTls: tls, proxyTunnel: tunnel, clientFactory: pool, factory: pool });
  const forwarded = !tunnel && new URL(proxy).protocol === 'http:';
  return { dispatcher: forwarded ? dispatcher.compose(connectionPerRequest) : dispatcher, proxy: describeProxy(proxy) };
}

/**
 * A forward proxy may close its client connection after each answer without
 * sending the "close" option (tinyproxy drops the origin's Connection field
 * and closes): a request sent on that connection before the close arrives is
 * lost, and a POST lost so cannot be sent again (RFC 9112 §9.3.1). Asking for
 * "close" on every request gives each one a connection of its own. A CONNECT
 * tunnel is not affected: it carries the target's own connection.
 */
const connectionPerRequest: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => dispatch({ ...options, reset: true }, handler);

/** NODE_EXTRA_CA_CERTS is read once by Node at start; giving `ca` replaces that list, so the file is read again here. */
function extraCertificates(): string[] {
  const file = process.env['NODE_EXTRA_CA_CERTS'];
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}
