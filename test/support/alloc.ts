import { getHeapSpaceStatistics } from 'node:v8'
import { expect } from 'vitest'

function newSpaceUsed(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size
  throw new Error('no new_space in v8.getHeapSpaceStatistics()')
}

/**
 * Bytes allocated per call of `fn`, from the growth of V8's young generation (allocation there is a
 * pointer bump, so growth between two reads is what was allocated, unless a scavenge ran: such
 * samples shrink and are dropped). The cost of reading the statistics is measured and subtracted.
 */
export function bytesPerCall(fn: () => void, calls: number, samples = 60): number {
  const grow = (body: () => void) => {
    const deltas: number[] = []
    for (let s = 0; s < samples; s++) {
      const before = newSpaceUsed()
      body()
      const after = newSpaceUsed()
      if (after >= before) deltas.push(after - before)
    }
    expect(deltas.length).toBeGreaterThan(samples / 2)
    deltas.sort((a, b) => a - b)
    return deltas[deltas.length >> 1]!
  }
  const empty = grow(() => {})
  const used = grow(() => {
    for (let c = 0; c < calls; c++) fn()
  })
  return (used - empty) / calls
}

/**
 * The lowest of several measurements, running `warm` and yielding between them: the optimizing
 * compiler works on a background thread (slow to get a core on a busy machine) and until its code
 * is installed a path runs in baseline code, which boxes numbers. A real allocation shows in every
 * measurement, so the lowest is the path's own figure.
 */
/** How long `settled` waits for the optimized code at the most (the allocation tests' timeout allows it). */
export const SETTLE_LIMIT_MS = 60_000

export async function settled(measure: () => number, warm: () => void): Promise<number> {
  let lowest = Number.POSITIVE_INFINITY
  // Generous: on two busy cores (another test file in the other worker) the compiler was seen to need over 20 s.
  const deadline = performance.now() + SETTLE_LIMIT_MS
  while (lowest >= 1 && performance.now() < deadline) {
    lowest = Math.min(lowest, measure())
    const until = performance.now() + 30
    while (performance.now() < until) warm()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return lowest
}
