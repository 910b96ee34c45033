/**
 * Failed API-key attempts per client address, on every route and the sign-in alike: past
 * `perMinute` failures an address is refused (429) until its bucket refills, so keys cannot be
 * guessed by rotating routes, headers or the presented key.
 */
export class KeyAttempts {
  private readonly buckets = new Map<string, { failures: number; at: number }>()

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  blockedFor(address: string): number {
    const bucket = this.current(address)
    // One more failure must still fit in the minute's allowance.
    if (!bucket || bucket.failures + 1 <= this.perMinute) return 0
    return Math.max(1, Math.ceil(((bucket.failures + 1 - this.perMinute) * 60) / this.perMinute))
  }

  fail(address: string) {
    const bucket = this.current(address) ?? { failures: 0, at: this.now() }
    bucket.failures += 1
    this.buckets.set(address, bucket)
    if (this.buckets.size > 10_000) {
      for (const [id] of this.buckets) if (!this.current(id)) this.buckets.delete(id)
    }
  }

  /** The bucket with the failures that have leaked out since it was last touched taken away. */
  private current(address: string) {
    const bucket = this.buckets.get(address)
    if (!bucket) return undefined
    const t = this.now()
    bucket.failures = Math.max(0, bucket.failures - ((t - bucket.at) / 60_000) * this.perMinute)
    bucket.at = t
    if (bucket.failures === 0) {
      this.buckets.delete(address)
      return undefined
    }
    return bucket
  }
}
