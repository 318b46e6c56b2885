/**
 * The control API's settings shared by every instance of one shared store:
 * a control call on any instance applies to all of them. The clock's offset
 * and the fault table travel whole, as one JSON state, through the store's
 * channel; a reset (or a cleared journal, or cleared findings) also empties
 * every instance's journal (findings). Each instance keeps its own journal
 * and findings of the requests it served.
 *
 * The latest state is kept in the store, so an instance started later, or
 * one back from an outage, takes it up too.
 */
import { randomUUID } from 'node:crypto';
import type { ControlChannel } from '../../store/store.js';
import type { Clock } from '../clock.js';
import type { Fault, FaultTable } from './faults.js';
import type { Journal } from './journal.js';

/** What happened, so that receivers know whether their journal or findings are to be emptied. */
export type ControlChange = 'clock' | 'faults' | 'reset' | 'journal' | 'findings';

interface ControlState {
  /** Each state's own: the latest, handed again after an outage, is not applied twice. */
  id: string;
  from: string;
  change: ControlChange;
  clockOffsetMs: number;
  faults: Record<string, Fault>;
}

export interface SharedControl {
  /** Tells every instance of a change made here; resolves once the store has it. */
  announce(change: ControlChange): Promise<void>;
}

export interface SharedControlParts {
  readonly clock: Clock;
  readonly faults: FaultTable;
  readonly journal: Journal;
  readonly findings?: { clear(): void };
}

/** Takes up the latest shared state, then follows every change; resolves once subscribed. */
export async function shareControl(channel: ControlChannel, parts: SharedControlParts): Promise<SharedControl> {
  const self = randomUUID();
  let applied: string | undefined;
  const apply = (text: string, initial: boolean) => {
    const state = readState(text);
    if (!state || state.id === applied) return;
    applied = state.id;
    parts.clock.setOffsetMs(state.clockOffsetMs);
    parts.faults.replace(state.faults);
    // This instance emptied its own journal when it made the change.
    if (!initial && state.from !== self && (state.change === 'reset' || state.change === 'journal')) parts.journal.clear();
    if (!initial && state.from !== self && (state.change === 'reset' || state.change === 'findings')) parts.findings?.clear();
  };
  const latest = await channel.latest();
  if (latest !== undefined) apply(latest, true);
  await channel.subscribe((text) => apply(text, false));
  return {
    announce(change) {
      const state: ControlState = { id: randomUUID(), from: self, change, clockOffsetMs: parts.clock.offsetMs(), faults: parts.faults.entries() };
      return channel.publish(JSON.stringify(state));
    },
  };
}

/** A state another instance published; anything else (another version's, garbage) is ignored. */
function readState(text: string): ControlState | undefined {
  try {
    const value = JSON.parse(text) as Partial<ControlState>;
    if (
      typeof value.id !== 'string' ||
      typeof value.from !== 'string' ||
      typeof value.clockOffsetMs !== 'number' ||
      typeof value.faults !== 'object' ||
      value.faults === null
    )
      return undefined;
    return value as ControlState;
  } catch {
    return undefined;
  }
}
