/**
 * Resumability of /mcp (MCP transport spec 2025-11-25, "Resumability and Redelivery"): every SSE event the SDK's
 * transport writes gets an id and is kept here for a while, so that a client whose connection dropped sends
 * `GET /mcp` with `Last-Event-ID` and receives what followed on that stream — above all the answer of a call that
 * went on running meanwhile (a dropped connection cancels nothing; only `notifications/cancelled` or the end of the
 * session does). Bounded in memory: per session at most {@link ReplayLimits.maxEvents} events and
 * {@link ReplayLimits.maxBytes} bytes, for all sessions together {@link ReplayLimits.totalBytes}, each event at most
 * {@link ReplayLimits.ttlMs} (priming events, which hold no message, only the count bounds); the oldest go first. The
 * events of a stream whose answer was delivered (the stream ended normally) go at once, and a session's events go with
 * the session: what stays is what a dropped connection missed.
 *
 * Event ids are `<stream>-<seq>` (numbers of this session), so that a replay still finds a stream's later events when
 * the one the client saw last has already been dropped.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Bounds of the kept events. */
export interface ReplayLimits {
  /** Most events kept per session. */
  maxEvents: number;
  /** Most bytes (the events' JSON, UTF-8) kept per session. */
  maxBytes: number;
  /** Most bytes kept for all sessions of the process together. */
  totalBytes: number;
  /** How long an event is kept (ms). */
  ttlMs: number;
}

/** Default bounds: 1,000 events and 16 MiB per session, 128 MiB in all, 10 minutes. */
export const REPLAY_LIMITS: Readonly<ReplayLimits> = {
  maxEvents: 1000,
  maxBytes: 16 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
  ttlMs: 10 * 60_000,
};

interface Held {
  store: SessionEventStore;
  id: string;
  stream: number;
  seq: number;
  /** null for a priming event (the SDK stores `{}`: an id with empty data, never replayed). */
  message: JSONRPCMessage | null;
  bytes: number;
  /** When it was stored (ms, Date.now()). */
  at: number;
}

/** The events of every session in the order they were stored, for the process-wide bound and the expiry. */
export class ReplayBudget {
  private readonly held = new Set<Held>();
  private bytes = 0;

  constructor(readonly limits: ReplayLimits = REPLAY_LIMITS) {}

  /** Bytes held for all sessions. */
  get size(): number {
    return this.bytes;
  }

  /** A new session's store; `onAnswer` is told the id of each JSON-RPC response stored (the end of a request). */
  store(onAnswer?: (id: string | number) => void): SessionEventStore {
    return new SessionEventStore(this, onAnswer);
  }

  /** @internal Adds an event, then drops the oldest of any session while over the total or expired. */
  add(h: Held): void {
    this.held.add(h);
    this.bytes += h.bytes;
    this.trim(h.at);
  }

  /** @internal Forgets an event (its store has dropped it). */
  remove(h: Held): void {
    if (this.held.delete(h)) this.bytes -= h.bytes;
  }

  /** Drops expired events, and the oldest while more than the total is held. */
  trim(now = Date.now()): void {
    for (const h of this.held) {
      if (this.bytes <= this.limits.totalBytes && now - h.at < this.limits.ttlMs) break;
      h.store.drop(h);
    }
  }
}

/** One session's events: the SDK's EventStore, bounded (see the module doc). */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Held>();
  private readonly streamNo = new Map<string, number>();
  private readonly streamOf = new Map<number, { id: string; count: number; answer?: string | number }>();
  /** Request id → the stream that holds its answer. */
  private readonly answered = new Map<string | number, number>();
  private seq = 0;
  private streams = 0;
  private bytes = 0;

  constructor(
    private readonly budget: ReplayBudget,
    private readonly onAnswer?: (id: string | number) => void,
  ) {}

  /** Number of events kept. */
  get size(): number {
    return this.events.size;
  }

  /** Stores an event of stream `streamId`; resolves with its id. */
  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    let stream = this.streamNo.get(streamId);
    if (stream === undefined) {
      stream = ++this.streams;
      this.streamNo.set(streamId, stream);
      this.streamOf.set(stream, { id: streamId, count: 0 });
    }
    const seq = ++this.seq;
    const id = `${stream}-${seq}`;
    const priming = !("jsonrpc" in message);
    const bytes = priming ? 0 : Buffer.byteLength(JSON.stringify(message));
    const h: Held = { store: this, id, stream, seq, message: priming ? null : message, bytes, at: Date.now() };
    this.events.set(id, h);
    (this.streamOf.get(stream) as { count: number }).count += 1;
    this.bytes += bytes;
    const { maxEvents, maxBytes } = this.budget.limits;
    for (const old of this.events.values()) {
      if (old === h || (this.events.size <= maxEvents && this.bytes <= maxBytes)) break;
      this.drop(old);
    }
    // A priming event (no bytes) is bounded by the count alone: it outlives the TTL so that a call running longer
    // than that can still be resumed from it.
    if (!priming) this.budget.add(h);
    if ("id" in message && ("result" in message || "error" in message) && message.id !== undefined) {
      (this.streamOf.get(stream) as { answer?: string | number }).answer = message.id;
      this.answered.set(message.id, stream);
      this.onAnswer?.(message.id);
    }
    return id;
  }

  /** The stream an event id belongs to while any event of that stream is kept; undefined otherwise. */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.streamOf.get(parseId(eventId)?.stream ?? -1)?.id;
  }

  /** True when a replay after `eventId` can be served (its stream is still known). */
  knows(eventId: string): boolean {
    this.budget.trim();
    return this.streamOf.has(parseId(eventId)?.stream ?? -1);
  }

  /**
   * Sends the kept events of `lastEventId`'s stream that came after it, in order (priming events skipped); resolves
   * with the stream's id, or "" when it is not known (the SDK then refuses the replay).
   */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    this.budget.trim();
    const last = parseId(lastEventId);
    const stream = last ? this.streamOf.get(last.stream) : undefined;
    if (!last || !stream) return "";
    const after = [...this.events.values()].filter((h) => h.stream === last.stream && h.seq > last.seq);
    for (const h of after) if (h.message) await send(h.id, h.message);
    return stream.id;
  }

  /**
   * Forgets the events of the stream that answered request `requestId`: its answer reached the client over the
   * stream (which ended normally), so no replay will ask for them. A no-op when no answer of that id is held.
   */
  delivered(requestId: string | number): void {
    const stream = this.answered.get(requestId);
    if (stream === undefined) return;
    for (const h of [...this.events.values()]) if (h.stream === stream) this.drop(h);
  }

  /** Forgets every event (the session ended). */
  clear(): void {
    for (const h of [...this.events.values()]) this.drop(h);
  }

  /** @internal Forgets one event (and its stream when it was the stream's last). */
  drop(h: Held): void {
    if (!this.events.delete(h.id)) return;
    this.bytes -= h.bytes;
    this.budget.remove(h);
    const s = this.streamOf.get(h.stream);
    if (s && --s.count === 0) {
      this.streamOf.delete(h.stream);
      this.streamNo.delete(s.id);
      if (s.answer !== undefined && this.answered.get(s.answer) === h.stream) this.answered.delete(s.answer);
    }
  }
}

/** `<stream>-<seq>` as numbers, or null when the id is not one of ours. */
function parseId(eventId: string): { stream: number; seq: number } | null {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(eventId);
  return m ? { stream: Number(m[1]), seq: Number(m[2]) } : null;
}
