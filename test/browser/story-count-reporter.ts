import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints how many stories ran in Chromium (the `storybook` project) and how they ended, after the
 * default reporter's summary. Silent when no story ran (e.g. `npm test`).
 */
export default class StoryCountReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 }
    let files = 0
    const broken: string[] = []
    for (const module of testModules) {
      // Browser instances run as child projects named "storybook (chromium)".
      const name = module.project.name
      if (name !== 'storybook' && !name.startsWith('storybook (')) continue
      let tests = 0
      for (const test of module.children.allTests()) {
        counts[test.result().state]++
        tests++
      }
      if (tests > 0) files++
      if (module.errors().length > 0) broken.push(module.relativeModuleId)
    }
    const total = counts.passed + counts.failed + counts.skipped + counts.pending
    if (total === 0 && broken.length === 0) return
    let line =
      `Stories checked in Chromium: ${total} in ${files} story files ` +
      `(${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''})`
    if (broken.length > 0) line += `; ${broken.length} story file(s) failed to load: ${broken.join(', ')}`
    console.log(`\n${line}\n`)
  }
}
