import type { Journal } from "./journal.ts";

export interface StoredEvent {
  readonly id: string;
  readonly clientId: string;
  readonly reference: string | undefined;
  /** Epoch ms. */
  readonly createdAt: number;
  /** The event as single-line JSON; undefined when the event was acknowledged but not kept (`events-not-stored`). */
  readonly json: string | undefined;
}

export interface EventStoreOptions {
  readonly maxEvents: number;
  /** Bodies are at most maxBodyBytes, so a count alone could still hold gigabytes; this caps the bytes too. */
  readonly maxBytes: number;
  readonly journal: Journal | undefined;
}

/** 256 MiB of event JSON at most, whatever maxEvents says. */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024 * 1024;

/**
 * Accepted events in a ring (the oldest go first when a bound is reached), plus the index of transaction references
 * per client that makes a repeated reference a 409 (production: the reference "must be unique").
 *
 * The ring is a set of parallel arrays indexed by sequence number, not an object per event: at tens of thousands of
 * events a second every retained object is GC work, and nothing here iterates a Map (V8 makes a fresh Map iterator
 * skip every hole earlier deletes left, 87 µs per call at 100,000 events).
 */
export class EventStore {
  readonly #capacity: number;
  readonly #ids: string[] = [];
  readonly #clientIds: string[] = [];
  readonly #references: (string | undefined)[] = [];
  readonly #createdAt: number[] = [];
  readonly #json: (string | undefined)[] = [];
  /** Event id → sequence number; the slot is the sequence number modulo the capacity. */
  readonly #bySequence = new Map<string, number>();
  /** Client id → transaction reference → sequence number. */
  readonly #byReference = new Map<string, Map<string, number>>();
  readonly #maxBytes: number;
  readonly #journal: Journal | undefined;
  #next = 0;
  #oldest = 0;
  #bytes = 0;

  constructor(options: EventStoreOptions) {
    this.#capacity = options.maxEvents;
    this.#maxBytes = options.maxBytes;
    this.#journal = options.journal;
  }

  get size(): number {
    return this.#next - this.#oldest;
  }

  /** The id of the event that already used this reference for this client, if it is still remembered. */
  duplicateOf(clientId: string, reference: string): string | undefined {
    const sequence = this.#byReference.get(clientId)?.get(reference);
    return sequence === undefined ? undefined : this.#ids[sequence % this.#capacity];
  }

  get(id: string): StoredEvent | undefined {
    const sequence = this.#bySequence.get(id);
    if (sequence === undefined) return undefined;
    const slot = sequence % this.#capacity;
    return {
      id,
      clientId: this.#clientIds[slot] ?? "",
      reference: this.#references[slot],
      createdAt: this.#createdAt[slot] ?? 0,
      json: this.#json[slot],
    };
  }

  add(event: StoredEvent): void {
    if (this.#next - this.#oldest === this.#capacity) this.#evictOldest();
    const sequence = this.#next;
    this.#next += 1;
    const slot = sequence % this.#capacity;
    // Slots fill in order, so a new slot is always the next index: the arrays stay packed.
    this.#ids[slot] = event.id;
    this.#clientIds[slot] = event.clientId;
    this.#references[slot] = event.reference;
    this.#createdAt[slot] = event.createdAt;
    this.#json[slot] = event.json;
    this.#bySequence.set(event.id, sequence);
    this.#bytes += event.json?.length ?? 0;
    if (event.reference !== undefined) {
      let references = this.#byReference.get(event.clientId);
      if (references === undefined) {
        references = new Map();
        this.#byReference.set(event.clientId, references);
      }
      references.set(event.reference, sequence);
    }
    if (event.json !== undefined && this.#journal !== undefined) {
      this.#journal.append(
        `{"id":"${event.id}","createdAt":"${new Date(event.createdAt).toISOString()}","clientId":${JSON.stringify(event.clientId)},"event":${event.json}}`,
      );
    }
    while (this.#bytes > this.#maxBytes && this.#next - this.#oldest > 1) this.#evictOldest();
  }

  #evictOldest(): void {
    const sequence = this.#oldest;
    this.#oldest += 1;
    const slot = sequence % this.#capacity;
    const id = this.#ids[slot];
    if (id !== undefined) this.#bySequence.delete(id);
    const clientId = this.#clientIds[slot] ?? "";
    const reference = this.#references[slot];
    const references = this.#byReference.get(clientId);
    if (reference !== undefined && references?.get(reference) === sequence) {
      references.delete(reference);
      if (references.size === 0) this.#byReference.delete(clientId);
    }
    this.#bytes -= this.#json[slot]?.length ?? 0;
    // Release the strings now rather than when the slot is reused.
    this.#references[slot] = undefined;
    this.#json[slot] = undefined;
  }
}
