import type { Reporter, TestModule } from 'vitest/node'
import { HAS_WEBGPU_THREE, WITHOUT_WEBGPU_THREE } from './webgpu-three'

/**
 * On a three.js without the WebGPU side react-three-md2/webgpu needs (see vitest.config.ts), prints what the
 * run left out, after the default reporter's summary: the WebGPURenderer story project and, per file, the
 * tests skipped for it. Silent on a three that has it.
 */
export default class LeftOutReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (HAS_WEBGPU_THREE) return
    const marker = ` [${WITHOUT_WEBGPU_THREE}]`
    const lines: string[] = []
    let total = 0
    for (const module of testModules) {
      const titles = new Map<string, number>()
      for (const test of module.children.allTests()) {
        // The describe block or test whose title carries the reason.
        const title = test.fullName.split(' > ').find((part) => part.endsWith(marker))
        if (!title || test.result().state !== 'skipped') continue
        const name = title.slice(0, -marker.length)
        titles.set(name, (titles.get(name) ?? 0) + 1)
        total++
      }
      for (const [name, count] of titles) lines.push(`  ${module.relativeModuleId}: ${name}${count > 1 ? ` (${count} tests)` : ''}`)
    }
    const storiesRan = testModules.some((module) => module.project.name.startsWith('storybook'))
    if (total === 0 && !storiesRan) return
    console.log(
      `\n${WITHOUT_WEBGPU_THREE[0]!.toUpperCase()}${WITHOUT_WEBGPU_THREE.slice(1)}:\n` +
        (storiesRan ? '  the storybook-webgpu project (every story drawn by WebGPURenderer)\n' : '') +
        (total > 0 ? `  ${total} skipped tests:\n${lines.join('\n')}\n` : ''),
    )
  }
}
