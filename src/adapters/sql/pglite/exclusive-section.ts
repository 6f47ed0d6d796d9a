/**
 * A FIFO mutex with an owner identity: the holder may re-enter it, which lets one connection keep PGlite's single
 * backend session across several message groups (a transaction) while the others wait their turn.
 */
export class ExclusiveSection<T> {
  private holder: T | null = null;
  private readonly waiters: Array<{ who: T; go: () => void }> = [];

  /** Resolves once `who` holds the section (at once when it already does). */
  acquire(who: T): Promise<void> {
    if (this.holder === who) return Promise.resolve();
    if (this.holder === null) {
      this.holder = who;
      return Promise.resolve();
    }
    return new Promise((go) => this.waiters.push({ who, go }));
  }

  /** Hands the section to the next waiter; a no-op when `who` does not hold it. */
  release(who: T): void {
    if (this.holder !== who) return;
    const next = this.waiters.shift();
    this.holder = next ? next.who : null;
    next?.go();
  }

  /** Whether anyone waits for the section. */
  get contended(): boolean {
    return this.waiters.length > 0;
  }

  /** Whether `who` holds the section. */
  holds(who: T): boolean {
    return this.holder === who;
  }
}
