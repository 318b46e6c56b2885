/**
 * What the suite knows for certain about the target: the pets this run
 * created (confirmed by a 201) and the target's clock. Nothing else is
 * assumed: the target may hold other pets, other clients may be writing,
 * lists may come in any order and ids may be any int64.
 */
import { whereTheyDiffer } from './show.js';
import { componentSchema } from '../spec/operations.js';
import { parseHttpDate } from './http-date.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../spec/json/index.js';

export interface CreatedPet {
  /** The id as exact digits. */
  readonly id: string;
  /** The 201 body: the pet as the target says it stored it. */
  readonly pet: JsonObject;
  /** performance.now() when the 201 arrived. */
  readonly confirmedAt: number;
}

/** The Pet properties the spec names: the ones compared for "the same fields". */
const PET_FIELDS = Object.keys(componentSchema('Pet')['properties'] as object);
const ID_FIELD = 'id';

export function idOf(value: JsonValue | undefined): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id = value[ID_FIELD];
  return typeof id === 'bigint' ? id.toString() : undefined;
}

/** The first spec field in which `observed` differs from `expected`, if any. */
export function differingField(expected: JsonObject, observed: JsonObject): string | undefined {
  for (const field of PET_FIELDS) {
    const a = expected[field];
    const b = observed[field];
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined || stringifyJson(a) !== stringifyJson(b)) return field;
  }
  return undefined;
}

/** What a 201 changed of the body it was created from: the first field sent that comes back otherwise, said plainly. */
export function echoProblem(sent: JsonObject, created: JsonObject): string | undefined {
  for (const [field, given] of Object.entries(sent)) {
    if (describeValue(created[field]) !== describeValue(given))
      return `created with ${field} ${describeValue(given)}, the 201 says ${describeValue(created[field])}${whereTheyDiffer(given, created[field])}`;
  }
  return undefined;
}

/** An object with an id and at least one other field of a Pet: pet data, whatever answer holds it. */
export function isPetShaped(value: JsonObject): boolean {
  return value['id'] !== undefined && (value['name'] !== undefined || value['categoryId'] !== undefined);
}

export function describeValue(value: JsonValue | undefined): string {
  return value === undefined ? '(absent)' : stringifyJson(value);
}

export class Knowledge {
  private readonly created = new Map<string, CreatedPet>();
  private dateAt?: { date: number; at: number };

  record(pet: JsonObject): CreatedPet | undefined {
    const id = idOf(pet);
    if (id === undefined) return undefined;
    const entry = { id, pet, confirmedAt: performance.now() };
    this.created.set(id, entry);
    return entry;
  }

  has(id: string): boolean {
    return this.created.has(id);
  }

  get(id: string): CreatedPet | undefined {
    return this.created.get(id);
  }

  all(): CreatedPet[] {
    return [...this.created.values()];
  }

  /** Pets confirmed before `instant` (performance.now()) whose status is `status` (any when undefined). */
  confirmedBefore(instant: number, status?: string): CreatedPet[] {
    return this.all().filter((p) => p.confirmedAt < instant && (status === undefined || p.pet['status'] === status));
  }

  /** The target's clock from a Date field, in any of the three forms a recipient accepts (RFC 9110 §5.6.7). */
  noteDate(header: string | undefined): void {
    if (!header) return;
    const date = parseHttpDate(header);
    if (!Number.isNaN(date)) this.dateAt = { date, at: Date.now() };
  }

  /**
   * The target's time now, from its latest Date header and the local time
   * since; the local clock when it sent none. To the second: a Date header
   * says no more, and a target on the removal day's first second is on it.
   */
  targetNow(): number {
    const now = this.dateAt ? this.dateAt.date + (Date.now() - this.dateAt.at) : Date.now();
    return now - (now % 1000);
  }

  targetDate(): string | undefined {
    return this.dateAt ? new Date(this.dateAt.date).toISOString() : undefined;
  }
}
