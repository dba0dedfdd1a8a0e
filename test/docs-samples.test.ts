import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const ROOT = join(__dirname, '..')

it("the README's game is examples/snippets/game.tsx verbatim (compiled by check:samples, played by test/browser/readme-game)", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## A game in a hundred lines')).split(/\n## /)[0]!
  const block = /```tsx\n([\s\S]*?)```/.exec(section)?.[1]
  expect(block).toBe(readFileSync(join(ROOT, 'examples/snippets/game.tsx'), 'utf8'))
})
