/**
 * The request a run sends before any check (runner.ts): whether the target
 * can be talked to at all, and if not, a one-line diagnosis that says what
 * to give instead.
 */
import type { OperationDescriptor } from '../spec/operations.js';
import { errorBodyProblem } from './check.js';
import { listOperation } from './checks/family-requests.js';
import { basePathOf, joinUrl, RateLimited, TargetUnreachableError, TransportError, type WireResponse } from './client.js';
import type { CheckContext } from './vocabulary.js';

/**
 * One request before anything else: an unreachable target, a refused key or
 * a base URL that does not serve this interface is a usage problem (exit 2,
 * one line), not a wall of failures. Only what cannot be this interface at
 * all is turned away (no such route, an HTML page, a body that is not JSON);
 * anything else, however wrong, is for the checks to judge.
 */
export async function preflight(ctx: CheckContext): Promise<void> {
  const list = listOperation(ctx) ?? ctx.operations[0];
  if (!list) return;
  const basePath = basePathOf(ctx.options.baseUrl);
  const named = ctx.operations.map((op) => op.path).find((path) => !path.includes('{') && basePath.endsWith(path));
  if (named)
    throw new TargetUnreachableError(
      `--base-url ends in ${named}, the path of an operation: give the base URL without it (${joinUrl(new URL(ctx.options.baseUrl).origin, basePath.slice(0, -named.length))})`,
    );
  try {
    const sent = await ctx.send('responses', { method: list.method, path: list.path, operationId: list.operationId });
    const { response } = sent;
    const url = joinUrl(ctx.options.baseUrl, list.path);
    const redirect = redirectDiagnosis(response, url, list.path, ctx.options.baseUrl);
    if (redirect) throw new TargetUnreachableError(redirect);
    // An answer that is not even JSON came from something in front of the interface; a JSON refusal is the interface's own.
    const foreign = response.json === undefined;
    if ((response.status === 401 || response.status === 403) && !foreign) {
      if (errorBodyProblem(response) === undefined)
        throw new TargetUnreachableError(`the target refuses the API key (${response.status} on ${list.method} ${list.path}); check --api-key`);
      // JSON, but not the interface's Error: the interface refusing the key badly, or a gateway's own refusal (AWS, Kong).
      throw new TargetUnreachableError(
        `${list.method} ${url} answered ${describeAnswer(response)}, which is not the interface's Error body: either the key is refused ` +
          `(check --api-key) or a gateway in front of it refused the request (if it needs a field of its own: --header 'Name: value')`,
      );
    }
    // A refusal without the interface's Error body came from something in front of it (404 and 405 say "no such route", below).
    if (response.status >= 400 && response.status < 500 && ![404, 405, 429].includes(response.status) && foreign) {
      throw new TargetUnreachableError(
        `${list.method} ${url} answered ${describeAnswer(response)}, which is not the interface's JSON Error body: ` +
          `something in front of it refused the request (a gateway, an access proxy${ctx.client.proxy ? `, the proxy ${ctx.client.proxy}` : ''}, ` +
          `a TLS terminator that wants a client certificate: --cert and --key); if it needs a field of its own, give it with --header 'Name: value'` +
          `${response.status === 401 ? '; else check --api-key' : ''}`,
      );
    }
    // The interface may be there with a broken list: a 401 with an Error body to no key says it is, and the checks judge the rest.
    const problem = notThisInterface(response);
    const seen = problem !== undefined && !(await refusesWithoutKey(ctx, list)) ? problem : undefined;
    if (seen)
      throw new TargetUnreachableError(
        `${ctx.options.baseUrl} does not serve this interface: ${list.method} ${url} answered ${seen}${await likelyFix(ctx, list.path)}`,
      );
  } catch (error) {
    if (error instanceof RateLimited) throw new TargetUnreachableError(`the target rate-limits every attempt of the first request: ${error.message}`);
    if (error instanceof TransportError) {
      const via = ctx.client.proxy ? ` through the proxy ${ctx.client.proxy} (from the environment; no_proxy bypasses it)` : '';
      const hint = /refused/.test(error.message) ? (ctx.client.proxy ? '; is the proxy running?' : '; is the port right?') : '';
      throw new TargetUnreachableError(`cannot reach ${ctx.options.baseUrl}${via}: ${error.message}${hint}`);
    }
    throw error;
  }
}

/**
 * A redirect from the base URL (http to https, a moved host): the suite never
 * follows one, so it names the base URL to give instead.
 */
function redirectDiagnosis(response: WireResponse, url: string, listPath: string, baseUrl: string): string | undefined {
  const location = response.headers['location'];
  if (response.status < 300 || response.status > 399 || !location) return undefined;
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    return `${url} answered ${response.status} with Location: ${location}, which is not a URI; the suite follows no redirect`;
  }
  const path = target.pathname.replace(/\/+$/, '');
  const base = path.endsWith(listPath) ? target.origin + path.slice(0, -listPath.length) : undefined;
  // A redirect to another spelling of the same list (a trailing slash) is the interface's own answer: the checks judge it.
  if (base !== undefined && base === baseUrl.replace(/\/+$/, '')) return undefined;
  return (
    `${url} answered ${response.status} with Location: ${target.href}; the suite follows no redirect (the key would travel with it), so ` +
    (base ? `give --base-url ${base}` : `give the base URL that serves the interface at the redirect's target`)
  );
}

/** An answer in one line: status, Content-Type, the first line of its body. */
function describeAnswer(response: WireResponse): string {
  const type = response.headers['content-type'] ?? 'no Content-Type';
  const line = response.text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const first = line.trim().length > 120 ? `${line.trim().slice(0, 117)}...` : line.trim();
  return `${response.status} (${type})${first ? `: ${JSON.stringify(first)}` : ' with an empty body'}`;
}

/** Whether the list, asked without a key, is refused with 401 and an Error body: the interface's own answer. */
async function refusesWithoutKey(ctx: CheckContext, list: OperationDescriptor): Promise<boolean> {
  const { response } = await ctx.send('responses', { method: list.method, path: list.path, operationId: list.operationId, auth: null });
  return response.status === 401 && errorBodyProblem(response) === undefined;
}

/** What in an answer shows there is no such interface here (no route, a web page, not JSON), or undefined. */
function notThisInterface(response: WireResponse): string | undefined {
  const type = response.headers['content-type'] ?? '';
  const html = /html/i.test(type) || /^\s*<(!doctype|html|head|body)/i.test(response.text);
  if ([404, 405, 501].includes(response.status)) return `${response.status}${html ? ' with an HTML page' : ''}: there is no such route there`;
  if (response.status >= 200 && response.status < 300 && response.json === undefined) {
    return `${response.status} with ${html ? 'an HTML page' : response.text === '' ? 'an empty body' : 'a body that is not JSON'}`;
  }
  return undefined;
}

/** A base URL nearby that does serve the interface: the version prefix forgotten, or the operation's path included. */
async function likelyFix(ctx: CheckContext, listPath: string): Promise<string> {
  if (/\/v\d+$/.test(basePathOf(ctx.options.baseUrl))) return '; is this the right host and port?';
  try {
    // Not an operation of the spec (its path is not one), so no family judges it.
    const probe = await ctx.send('responses', { method: 'GET', path: `/v1${listPath}`, operationId: 'preflight' });
    if (probe.response.status < 300 && Array.isArray(probe.response.json))
      return `; ${joinUrl(ctx.options.baseUrl, '/v1')} does: a base URL ends in its version prefix`;
  } catch {
    // Nothing better to suggest.
  }
  return '; a base URL ends in the version prefix (…/v1)';
}
