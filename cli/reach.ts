/**
 * What `petstore conform` needs to reach a real staging: the fields a
 * gateway wants on every request (`--header`), and the TLS material
 * (`--ca`, `--cert`, `--key`, `--insecure`). Each bad value is a usage error
 * that names the option, before any request is sent.
 */
import { readFileSync } from 'node:fs';
import type { Secret, TlsOptions } from '../conformance/index.js';
import { UsageError } from './io.js';

/** RFC 9110 §5.6.2: a field name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Fields the suite sets itself, per request or per check: a --header value
 * would hide what a check sends (the credential, the media types) or break
 * the message's framing.
 */
const OWNED = new Map([
  ['authorization', 'the suite sends the API key there (--api-key); a gateway credential needs a field of its own'],
  ['host', 'it comes from --base-url'],
  ['content-length', 'it frames the message'],
  ['transfer-encoding', 'it frames the message'],
  ['connection', 'it is hop-by-hop'],
  ['te', 'it is hop-by-hop'],
  ['upgrade', 'it is hop-by-hop'],
  ['keep-alive', 'it is hop-by-hop'],
  ['proxy-connection', 'it is hop-by-hop'],
  ['trailer', 'it frames the message'],
  ['expect', 'the client decides when to wait for 100 Continue'],
  ['content-type', 'the checks set it per request'],
  ['accept', 'the checks set it per request'],
]);

/** Shorter values would be found inside ordinary words of a report; they are sent, and shown. */
const MIN_SECRET_LENGTH = 4;

export interface ResolvedHeaders {
  /** Name → value, as sent. */
  readonly fields: Record<string, string>;
  /** The values as the reports hide them, each with the variable a replay reads it from. */
  readonly secrets: Secret[];
  /**
   * Each --header as a rerun line repeats it, without a secret: as given when
   * its value is read from a file or the environment, else with the variable
   * the reports name (`${PETSTORE_HEADER_<NAME>}`).
   */
  readonly rerun: string[];
}

/**
 * `Name: value` per --header. A value `@FILE` is read from that file (its
 * last line break dropped); `${VAR}` anywhere in a value is replaced by that
 * environment variable. Every value is a secret of the run: a value from the
 * environment is shown as `$VAR`, any other as `$PETSTORE_HEADER_<NAME>`.
 */
export function resolveHeaders(specs: readonly string[], env: Readonly<Record<string, string | undefined>>): ResolvedHeaders {
  const fields: Record<string, string> = {};
  const secrets: Secret[] = [];
  const rerun: string[] = [];
  for (const spec of specs) {
    const colon = spec.indexOf(':');
    const name = colon === -1 ? '' : spec.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new UsageError(`--header ${JSON.stringify(spec)}: expected 'Name: value' with a field name such as X-Gateway-Key`);
    const lower = name.toLowerCase();
    const owned = OWNED.get(lower);
    if (owned) throw new UsageError(`--header ${name}: the suite cannot send it as given (${owned})`);
    if (Object.keys(fields).some((given) => given.toLowerCase() === lower)) throw new UsageError(`--header ${name}: given twice`);
    const raw = spec.slice(colon + 1).trim();
    const variable = `PETSTORE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
    let value: string;
    if (raw.startsWith('@')) {
      value = readText(`--header ${name}`, raw.slice(1)).replace(/\r?\n$/, '');
      secrets.push({ text: value, variable });
      rerun.push(`${name}: ${raw}`);
    } else if (!/\$\{[A-Za-z_]\w*\}/.test(raw)) {
      value = raw;
      secrets.push({ text: value, variable });
      rerun.push(`${name}: \${${variable}}`);
    } else {
      rerun.push(`${name}: ${raw}`);
      // Only what comes from the environment is hidden: text around it (a scheme such as "Bearer ") is shown.
      value = raw.replace(/\$\{([A-Za-z_]\w*)\}/g, (_whole, from: string) => {
        const found = env[from];
        if (found === undefined) throw new UsageError(`--header ${name}: the environment has no ${from}`);
        secrets.push({ text: found, variable: from });
        return found;
      });
    }
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: a field value cannot hold a line break or NUL`);
    fields[name] = value;
  }
  return { fields, secrets: secrets.filter((s) => s.text.length >= MIN_SECRET_LENGTH), rerun };
}

/** The TLS options of the run, or undefined when none is given. */
export function readTlsFiles(options: { ca?: string; cert?: string; key?: string; insecure?: boolean }): TlsOptions | undefined {
  const ca = options.ca === undefined ? undefined : readText('--ca', options.ca);
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--ca ${options.ca}: not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  const cert = options.cert === undefined ? undefined : readText('--cert', options.cert);
  if (cert !== undefined && !cert.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--cert ${options.cert}: not a PEM certificate`);
  const key = options.key === undefined ? undefined : readText('--key', options.key);
  if (key !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new UsageError(`--key ${options.key}: not a PEM private key`);
  // A PEM bundle may hold the certificate and its key together.
  if (cert !== undefined && key === undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(cert))
    throw new UsageError('--cert needs --key: the private key of the client certificate');
  if (key !== undefined && cert === undefined) throw new UsageError('--key needs --cert: the client certificate it belongs to');
  if (ca === undefined && cert === undefined && !options.insecure) return undefined;
  return {
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : cert !== undefined ? { key: cert } : {}),
    ...(options.insecure ? { insecure: true } : {}),
  };
}

function readText(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
