/**
 * In-process catalog of the atoms an embedded index holds: atom id ↔ dense slot, and per-slot filter attributes
 * (type, status, document) in typed arrays, so that a filter becomes a byte mask in one linear pass.
 */
import { ATOM_STATUSES, ATOM_TYPES, type AtomFilter, type AtomStatus, type AtomType } from "../../domain/atom.ts";

const RETRACTED = ATOM_STATUSES.indexOf("retracted");

/** Filter attributes of one atom. */
export interface AtomAttrs {
  type: AtomType;
  status: AtomStatus;
  docId: number | null;
  /** A note (no document, or a document only referenced): see AtomIndexRow.note. */
  note?: boolean;
}

function grow<T extends Uint8Array | Float64Array>(a: T, size: number): T {
  if (size <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

/** The typed arrays of an {@link AtomCatalog} (each `size` long), as a snapshot stores them. */
export interface CatalogState {
  size: number;
  /** Atom id per slot. */
  ids: Float64Array<ArrayBuffer>;
  /** Index into ATOM_TYPES per slot. */
  types: Uint8Array<ArrayBuffer>;
  /** Index into ATOM_STATUSES per slot. */
  statuses: Uint8Array<ArrayBuffer>;
  /** Document id per slot (NaN: none). */
  docs: Float64Array<ArrayBuffer>;
  /** 1 for a note. */
  notes: Uint8Array<ArrayBuffer>;
}

/** Slot registry with attributes; slots are never reused, so a slot number is stable for the process lifetime. */
export class AtomCatalog {
  private readonly slotOf = new Map<number, number>();
  private ids = new Float64Array(1024);
  private types = new Uint8Array(1024);
  private statuses = new Uint8Array(1024);
  private docs = new Float64Array(1024);
  private notes = new Uint8Array(1024);
  private n = 0;
  /** Masks asked for recently, by filter, kept up to date on every upsert (see {@link mask}). */
  private readonly masks = new Map<string, { filter: AtomFilter; mask: Uint8Array }>();

  /** Number of slots. */
  get size(): number {
    return this.n;
  }

  /** Forgets every atom (slot numbers start again at 0); the indexes over these slots must be cleared with it. */
  clear(): void {
    this.slotOf.clear();
    this.n = 0;
    this.masks.clear();
  }

  /** Views of the slots' arrays (shared, not copied: read them before the next upsert). */
  exportState(): CatalogState {
    const n = this.n;
    return {
      size: n,
      ids: this.ids.subarray(0, n),
      types: this.types.subarray(0, n),
      statuses: this.statuses.subarray(0, n),
      docs: this.docs.subarray(0, n),
      notes: this.notes.subarray(0, n),
    };
  }

  /**
   * Replaces every slot by a saved state (its arrays are adopted, not copied; they grow by copy on the next new atom).
   * @throws Error when the arrays are shorter than `state.size`.
   */
  importState(state: CatalogState): void {
    const n = state.size;
    for (const a of [state.ids, state.types, state.statuses, state.docs, state.notes])
      if (a.length < n) throw new Error(`catalog array of ${a.length} slots, ${n} expected`);
    this.clear();
    this.ids = state.ids;
    this.types = state.types;
    this.statuses = state.statuses;
    this.docs = state.docs;
    this.notes = state.notes;
    for (let slot = 0; slot < n; slot++) this.slotOf.set(state.ids[slot], slot);
    this.n = n;
  }

  /** Slot of an atom id, or undefined. */
  slot(atomId: number): number | undefined {
    return this.slotOf.get(atomId);
  }

  /** Atom id of a slot. */
  atomId(slot: number): number {
    return this.ids[slot];
  }

  /** Inserts or updates an atom's attributes; returns its slot. */
  upsert(atomId: number, attrs: AtomAttrs): number {
    let slot = this.slotOf.get(atomId);
    if (slot === undefined) {
      slot = this.n++;
      this.ids = grow(this.ids, this.n);
      this.types = grow(this.types, this.n);
      this.statuses = grow(this.statuses, this.n);
      this.docs = grow(this.docs, this.n);
      this.ids[slot] = atomId;
      this.slotOf.set(atomId, slot);
    }
    this.types[slot] = ATOM_TYPES.indexOf(attrs.type);
    this.statuses[slot] = ATOM_STATUSES.indexOf(attrs.status);
    this.docs[slot] = attrs.docId ?? Number.NaN;
    this.notes = grow(this.notes, this.n);
    this.notes[slot] = attrs.note ? 1 : 0;
    for (const m of this.masks.values()) {
      m.mask = grow(m.mask, this.n);
      m.mask[slot] = this.allowed(slot, m.filter);
    }
    return slot;
  }

  /**
   * Slots of a note's neighbours in its episode, up to `reach` atoms away on each side: walking from the note to
   * lower and to higher ids, each step one id, while the atoms met are notes (stored one after another, as the turns
   * of a conversation); a gap in the ids or an atom that is no note ends the episode on that side. Nearest first;
   * `distance` is the number of steps (1 = the next lower or higher id). Atoms of ingested documents have none: for
   * them it only lowered document retrieval (bench/notes.md). Empty for a slot that is no note.
   */
  neighbours(slot: number, reach = 1): Array<{ slot: number; distance: number }> {
    if (this.notes[slot] !== 1) return [];
    const out: Array<{ slot: number; distance: number }> = [];
    for (const step of [-1, 1]) {
      for (let distance = 1; distance <= reach; distance++) {
        const n = this.slotOf.get(this.ids[slot] + step * distance);
        if (n === undefined || this.notes[n] !== 1) break;
        out.push({ slot: n, distance });
      }
    }
    return out.sort((a, b) => a.distance - b.distance);
  }

  /**
   * Byte mask over slots (1 = may be returned; slots past {@link size} are 0) for a filter; retracted atoms are always
   * 0. The masks of the last {@link MASKS_KEPT} filters are kept and updated by each upsert, so that dedup's lookup
   * per new atom does not pass over every slot (which made a directory of many small files quadratic). The mask is
   * shared: callers only read it.
   */
  mask(filter: AtomFilter = {}): Uint8Array {
    const key = JSON.stringify([filter.types ?? [], filter.status ?? [], filter.docIds ?? []]);
    const kept = this.masks.get(key);
    if (kept) return kept.mask;
    const m = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) m[i] = this.allowed(i, filter);
    if (this.masks.size >= MASKS_KEPT) this.masks.delete(this.masks.keys().next().value as string);
    const own = {
      types: filter.types && [...filter.types],
      status: filter.status && [...filter.status],
      docIds: filter.docIds && [...filter.docIds],
    };
    this.masks.set(key, { filter: own, mask: m });
    return m;
  }

  private allowed(slot: number, filter: AtomFilter): number {
    if (this.statuses[slot] === RETRACTED) return 0;
    if (filter.types?.length && !filter.types.includes(ATOM_TYPES[this.types[slot]])) return 0;
    if (filter.status?.length && !filter.status.includes(ATOM_STATUSES[this.statuses[slot]])) return 0;
    if (filter.docIds?.length && !filter.docIds.includes(this.docs[slot])) return 0;
    return 1;
  }
}

/** Filters whose masks an {@link AtomCatalog} keeps up to date. */
const MASKS_KEPT = 16;
