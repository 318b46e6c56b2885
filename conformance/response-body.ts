/**
 * What an answer's bytes say, read the way its header fields declare them
 * (RFC 9110 §8.3, §8.4): the content codings of Content-Encoding undone in
 * reverse order of application, then the bytes as UTF-8 JSON text (RFC 8259
 * §8.1). Whatever stands in the way of that reading is recorded, not thrown:
 * the `invariants` family judges it (checks/rules/readable.ts), every other
 * check sees the decoded body.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { parseJsonBytes, stringifyJson, type JsonValue } from '../spec/json/index.js';

export interface RepeatedName {
  readonly name: string;
  readonly sameValue: boolean;
}

export interface ReadBody {
  /** The decoded body as UTF-8 text (a BOM kept, invalid sequences replaced). */
  readonly text: string;
  /** The body parsed losslessly (integers as bigint), when it is JSON. */
  readonly json: JsonValue | undefined;
  readonly parseError?: string;
  /** The content codings undone, as Content-Encoding named them ("gzip"). */
  readonly coding?: string;
  /** Why the body could not be decoded as Content-Encoding says; the rest is then read from the bytes as they came. */
  readonly undecodable?: string;
  /** A registered coding this Node.js cannot undo (zstd before Node 22.15): the body was not judged. */
  readonly unsupportedCoding?: string;
  /** The text starts with U+FEFF (RFC 8259 §8.1: a sender MUST NOT add one). */
  readonly bom?: true;
  /** Member names repeated within one object, in order, and whether the values were the same (RFC 8259 §4). */
  readonly duplicateKeys?: readonly RepeatedName[];
}

type Decoder = (bytes: Buffer, maxOutputLength: number) => Buffer;

// Node's zstd arrived in 22.15 and 23.8; the type is read off the module so that Node 20's types compile.
const zstd = (zlib as unknown as { zstdDecompressSync?: (bytes: Buffer, options: { maxOutputLength: number }) => Buffer }).zstdDecompressSync;

/**
 * The content codings of the IANA registry (RFC 9110 §16.6.1, §18.6) this
 * reader undoes. `deflate` is the zlib format (RFC 9110 §8.4.1.2); raw
 * deflate, which some servers send under that name, is read too, as browsers
 * read it.
 */
const DECODERS: Readonly<Record<string, Decoder | undefined>> = {
  identity: (bytes) => bytes,
  gzip: (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  'x-gzip': (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  deflate: (bytes, maxOutputLength) => {
    try {
      return inflateSync(bytes, { maxOutputLength });
    } catch {
      return inflateRawSync(bytes, { maxOutputLength });
    }
  },
  br: (bytes, maxOutputLength) => brotliDecompressSync(bytes, { maxOutputLength }),
  zstd: zstd ? (bytes, maxOutputLength) => zstd(bytes, { maxOutputLength }) : undefined,
};

/** Registered codings that no decoder here undoes: a body in one is left unjudged, never failed. */
const REGISTERED_ELSEWHERE = new Set(['compress', 'x-compress', 'exi', 'pack200-gzip', 'aes128gcm', 'dcb', 'dcz', 'zstd']);

const BOM = 0xfeff;

export function readBody(raw: Buffer, contentEncoding: string | undefined, maxOutputLength: number): ReadBody {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let bytes = raw;
  const read: { coding?: string; undecodable?: string; unsupportedCoding?: string } = {};
  if (codings.length > 0 && raw.length > 0) {
    const decoded = undoCodings(raw, codings, maxOutputLength);
    if (typeof decoded === 'string') {
      if (decoded.startsWith('unsupported:')) read.unsupportedCoding = decoded.slice('unsupported:'.length);
      else read.undecodable = decoded;
    } else {
      bytes = decoded;
      read.coding = codings.join(', ');
    }
  }
  const text = bytes.toString('utf8');
  const duplicates: RepeatedName[] = [];
  const onDuplicateKey = (name: string, earlier: JsonValue, later: JsonValue) =>
    void duplicates.push({ name, sameValue: stringifyJson(earlier) === stringifyJson(later) });
  const parsed = bytes.length === 0 ? undefined : parseJsonBytes(bytes, { maxDepth: 64, maxMembers: 1_000_000, onDuplicateKey });
  return {
    text,
    json: parsed?.ok ? parsed.value : undefined,
    ...(parsed && !parsed.ok ? { parseError: parsed.message } : {}),
    ...read,
    ...(text.charCodeAt(0) === BOM ? { bom: true as const } : {}),
    ...(parsed?.ok && duplicates.length > 0 ? { duplicateKeys: duplicates } : {}),
  };
}

/** The bytes with `codings` undone (last applied, first undone), or why not. */
function undoCodings(raw: Buffer, codings: readonly string[], maxOutputLength: number): Buffer | string {
  let bytes = raw;
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding];
    if (decoder === undefined) {
      return REGISTERED_ELSEWHERE.has(coding) ? `unsupported:${coding}` : `"${coding}" is not a registered content coding (RFC 9110 §8.4.1, §16.6.1)`;
    }
    try {
      bytes = decoder(bytes, maxOutputLength);
    } catch (error) {
      return `the body does not decode as ${coding}: ${(error as Error).message}`;
    }
  }
  return bytes;
}
