/**
 * three's glTF loader can leave the promise of a part it abandoned (another part failed first) rejected with
 * no handler. The load's own refusal, or the run going on without that part, already says what failed, so
 * the command (main.ts) lets such rejections pass while a load runs; any other is a bug of the CLI's.
 */
let loadsRunning = 0

/** Runs a three.js load, marked as running until a turn after it settles (when Node reports its strays). */
export async function loadWithThree<T>(load: () => Promise<T>): Promise<T> {
  loadsRunning++
  try {
    return await load()
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 0))
    loadsRunning--
  }
}

/** Whether an unhandled rejection now may be a part three's loader abandoned. */
export const threeLoadRunning = (): boolean => loadsRunning > 0
