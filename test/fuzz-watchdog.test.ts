/**
 * The fuzz tests' watchdog (test/support/fuzz.ts): a case that never yields its thread ends the process with
 * the case named, where the test runner's own timeout, on that thread, never fires.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const SUPPORT = new URL('./support/fuzz.ts', import.meta.url).href

function runScript(body: string) {
  const script = `import { FuzzWatchdog } from ${JSON.stringify(SUPPORT)}\n${body}`
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 })
}

describe('FuzzWatchdog', () => {
  it('kills a process whose case spins, naming the case; finished cases and a closed watchdog leave it be', () => {
    const hung = runScript(`
      const watchdog = new FuzzWatchdog(300)
      watchdog.start('FUZZ_SEED=7, run 0')
      watchdog.finish()
      watchdog.start('FUZZ_SEED=7, run 1: {"cut":12}')
      for (;;) {}
    `)
    expect(hung.signal).toBe('SIGKILL')
    expect(hung.stderr).toContain('a case ran over 300 ms')
    expect(hung.stderr).toContain('FUZZ_SEED=7, run 1: {"cut":12}')
    expect(hung.stderr).not.toContain('run 0')

    const quick = runScript(`
      const watchdog = new FuzzWatchdog(300)
      watchdog.start('run 0')
      watchdog.finish()
      const until = Date.now() + 800
      while (Date.now() < until) {}
      await watchdog.close()
      console.log('done')
    `)
    expect(quick.signal).toBeNull()
    expect(quick.status).toBe(0)
    expect(quick.stdout).toBe('done\n')
  })
})
