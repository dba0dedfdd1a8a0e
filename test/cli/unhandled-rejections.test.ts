/**
 * The command's rule for rejections nothing handled (src/cli/main.ts): one that comes while three's loader runs
 * is a part it abandoned, and passes; any other fails the run with one internal-error line, never a stack trace
 * nor a silent exit 0. Through `main` itself, in a process of its own (Node's own reaction is what is tested).
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).href
const PARTS = new URL('../../src/cli/abandonedParts.ts', import.meta.url).href

/** `main(['help'])`, then `after` (the stray rejections), in a child process. */
function runMain(after: string) {
  const script = `
    import { main } from ${JSON.stringify(MAIN)}
    import { loadWithThree } from ${JSON.stringify(PARTS)}
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5))
    await main(['node', 'react-three-md2', 'help'])
    ${after}
  `
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })
}

describe('rejections nothing handled', () => {
  it("pass while three's loader runs, whether the load succeeds or is refused", () => {
    const run = runMain(`
      await loadWithThree(async () => { void Promise.reject(new Error('abandoned part')); await tick(); return 1 })
      await loadWithThree(async () => { void Promise.reject(new Error('abandoned too')); throw new Error('refused') }).catch(() => {})
      await tick()
    `)
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/^Usage/m)
    expect(run.status).toBe(0)
  })

  it('fail the run otherwise: one line naming it, exit 1, no stack trace', () => {
    const run = runMain(`
      void Promise.reject(new Error('a bug of ours'))
      await tick()
      void Promise.reject(new Error('a second one'))
      await tick()
    `)
    expect(run.stderr).toBe('react-three-md2: internal error: a bug of ours (please report this)\n')
    expect(run.status).toBe(1)
  })
})
