/**
 * Slots ordered by a time each: a binary min-heap indexed by slot, so that a slot's time is set, moved or
 * removed in O(log n) and the earliest is found in O(1). Typed arrays sized once: nothing is allocated after
 * construction. `CrowdClock` keeps each listened instance's next keyframe time in one.
 */
export class EventSchedule {
  /** The heap: slots, earliest first at 0. */
  private readonly heap: Int32Array
  /** Each slot's place in `heap` (−1: not scheduled). */
  private readonly place: Int32Array
  private readonly times: Float64Array
  size = 0

  constructor(capacity: number) {
    this.heap = new Int32Array(capacity)
    this.place = new Int32Array(capacity).fill(-1)
    this.times = new Float64Array(capacity)
  }

  /** The earliest time scheduled (call only when `size > 0`). */
  nextTime(): number {
    return this.times[this.heap[0]!]!
  }

  /** Schedules `slot` at `time` (moving it if it was scheduled). */
  set(slot: number, time: number): void {
    let at = this.place[slot]!
    if (at < 0) {
      at = this.size++
      this.heap[at] = slot
      this.place[slot] = at
    }
    const before = this.times[slot]!
    this.times[slot] = time
    if (time < before) this.up(at)
    else this.down(this.up(at))
  }

  /** Takes the earliest slot out and returns it (call only when `size > 0`). */
  pop(): number {
    const slot = this.heap[0]!
    this.remove(slot)
    return slot
  }

  remove(slot: number): void {
    const at = this.place[slot]!
    if (at < 0) return
    this.place[slot] = -1
    const last = this.heap[--this.size]!
    if (at === this.size) return
    this.heap[at] = last
    this.place[last] = at
    this.down(this.up(at))
  }

  clear(): void {
    for (let k = 0; k < this.size; k++) this.place[this.heap[k]!] = -1
    this.size = 0
  }

  private up(at: number): number {
    const heap = this.heap
    const slot = heap[at]!
    const time = this.times[slot]!
    while (at > 0) {
      const parent = (at - 1) >> 1
      const above = heap[parent]!
      if (this.times[above]! <= time) break
      heap[at] = above
      this.place[above] = at
      at = parent
    }
    heap[at] = slot
    this.place[slot] = at
    return at
  }

  private down(at: number): void {
    const heap = this.heap
    const slot = heap[at]!
    const time = this.times[slot]!
    for (;;) {
      let child = 2 * at + 1
      if (child >= this.size) break
      if (child + 1 < this.size && this.times[heap[child + 1]!]! < this.times[heap[child]!]!) child++
      const below = heap[child]!
      if (this.times[below]! >= time) break
      heap[at] = below
      this.place[below] = at
      at = child
    }
    heap[at] = slot
    this.place[slot] = at
  }
}
