/**
 * Request bodies at the edges of RFC 8259, each a valid NewPet in every
 * reading a JSON parser may give it, or in none. One line a text. What a
 * parser does with some of them is left open by the RFC itself: a repeated
 * member name (§4: "the behavior ... is unpredictable"), a byte order mark
 * (§8.1: a parser MAY ignore it), an unpaired surrogate (§8.2), non-JSON forms
 * (§9: a parser MAY accept them). So a text is `created` (every reading is
 * the same valid NewPet: 201 is required), `refused` (no reading is a valid
 * NewPet: 400 is required), or `either` (201 or 400, both conform); a 201 must
 * hold one of the text's readings, and never a value no parser could read.
 */
export interface PetFields {
  /** The name as a JSON string literal's content, already escaped where needed. */
  readonly name: string;
  readonly categoryId: bigint;
}

export interface JsonTextEntry {
  readonly label: string;
  /** RFC 8259's section. */
  readonly section: string;
  readonly expect: 'created' | 'refused' | 'either';
  /** The body, built around a valid NewPet's fields (the name carries the run's prefix). */
  readonly text: (pet: PetFields) => string;
  /** Each acceptable reading of a created pet: its name and categoryId (as digits). */
  readonly readings?: (pet: PetFields) => readonly { readonly name: string; readonly categoryId: string }[];
}

const q = (text: string): string => JSON.stringify(text);
const plain = ({ name, categoryId }: PetFields) => [{ name, categoryId: String(categoryId) }];

export const JSON_TEXTS: readonly JsonTextEntry[] = [
  {
    label: 'a member name repeated with the same value',
    section: 'RFC 8259 §4',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name)},"name":${q(name)},"categoryId":${categoryId}}`,
    readings: plain,
  },
  {
    label: 'a member name repeated with another value',
    section: 'RFC 8259 §4',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(`${name}-first`)},"categoryId":${categoryId},"name":${q(`${name}-last`)}}`,
    readings: ({ name, categoryId }) => [
      { name: `${name}-first`, categoryId: String(categoryId) },
      { name: `${name}-last`, categoryId: String(categoryId) },
    ],
  },
  {
    label: 'categoryId repeated, an integer then a string',
    section: 'RFC 8259 §4',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name)},"categoryId":${categoryId},"categoryId":"${categoryId}"}`,
    readings: plain,
  },
  { label: 'a byte order mark before the text', section: 'RFC 8259 §8.1', expect: 'either', text: (p) => `\ufeff${plainText(p)}`, readings: plain },
  { label: 'white space of every kind around every token', section: 'RFC 8259 §2', expect: 'created', text: spacedText, readings: plain },
  {
    label: 'categoryId written with a zero fraction (1.0)',
    section: 'RFC 8259 §6',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name)},"categoryId":${categoryId}.0}`,
    readings: plain,
  },
  {
    label: 'categoryId written with an exponent (5E2)',
    section: 'RFC 8259 §6',
    expect: 'either',
    text: ({ name }) => `{"name":${q(name)},"categoryId":5E2}`,
    readings: ({ name }) => [{ name, categoryId: '500' }],
  },
  {
    label: 'categoryId written as -0',
    section: 'RFC 8259 §6',
    expect: 'either',
    text: ({ name }) => `{"name":${q(name)},"categoryId":-0}`,
    readings: ({ name }) => [{ name, categoryId: '0' }],
  },
  { label: 'categoryId 1e400, beyond any int64', section: 'RFC 8259 §6', expect: 'refused', text: ({ name }) => `{"name":${q(name)},"categoryId":1e400}` },
  {
    label: 'categoryId of 5,000 digits',
    section: 'RFC 8259 §6, §9',
    expect: 'refused',
    text: ({ name }) => `{"name":${q(name)},"categoryId":${'9'.repeat(5000)}}`,
  },
  { label: 'categoryId NaN (not JSON)', section: 'RFC 8259 §6', expect: 'refused', text: ({ name }) => `{"name":${q(name)},"categoryId":NaN}` },
  {
    label: 'the name written with \\u escapes and an escaped surrogate pair',
    section: 'RFC 8259 §7',
    expect: 'created',
    text: ({ name, categoryId }) => `{"name":"${escapeAll(`${name}é😀/`)}","categoryId":${categoryId}}`,
    readings: ({ name, categoryId }) => [{ name: `${name}é😀/`, categoryId: String(categoryId) }],
  },
  {
    label: 'an escaped unpaired surrogate in the name',
    section: 'RFC 8259 §8.2',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name).slice(0, -1)}\\ud800","categoryId":${categoryId}}`,
    readings: ({ name, categoryId }) => [
      { name: `${name}\ud800`, categoryId: String(categoryId) },
      { name: `${name}\ufffd`, categoryId: String(categoryId) },
    ],
  },
  {
    label: 'an unknown member nested 10,000 levels deep',
    section: 'RFC 8259 §9 (limits on nesting)',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name)},"categoryId":${categoryId},"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    readings: plain,
  },
  {
    label: 'another JSON value after the object',
    section: 'RFC 8259 §2, §9 (a parser MAY accept non-JSON forms)',
    expect: 'either',
    text: (p) => `${plainText(p)} {"name":"other"}`,
    readings: plain,
  },
  {
    label: 'NaN in an unknown member',
    section: 'RFC 8259 §6, §9 (a parser MAY accept non-JSON forms)',
    expect: 'either',
    text: ({ name, categoryId }) => `{"name":${q(name)},"categoryId":${categoryId},"extra":NaN}`,
    readings: plain,
  },
];

function plainText({ name, categoryId }: PetFields): string {
  return `{"name":${q(name)},"categoryId":${categoryId}}`;
}

/** RFC 8259 §2: space, tab, line feed and carriage return are insignificant around any structural character. */
function spacedText({ name, categoryId }: PetFields): string {
  const ws = ' \t\r\n';
  return `${ws}{${ws}"name"${ws}:${ws}${q(name)}${ws},${ws}"categoryId"${ws}:${ws}${categoryId}${ws}}${ws}`;
}

/** Every character of `text` as a \u escape (astral ones as their surrogate pair). */
function escapeAll(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
