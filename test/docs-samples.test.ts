import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REFERENCE_TITLES, referenceMarkdown } from '../stories/support/reference'

const ROOT = join(__dirname, '..')
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')
/** The reference pages, readable on GitHub and rendered in Storybook. */
const DOC_PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`)

it("the README's game is examples/snippets/game.tsx verbatim (compiled by check:samples, played by test/browser/readme-game)", () => {
  const readme = read('README.md')
  const section = readme.slice(readme.indexOf('## A game in a hundred lines')).split(/\n## /)[0]!
  const block = /```tsx\n([\s\S]*?)```/.exec(section)?.[1]
  expect(block).toBe(read('examples/snippets/game.tsx'))
})

/**
 * The samples of the docs pages that are files of examples/snippets/ (which the Storybook pages show), each
 * marked by a comment naming its file on the line before its fence: `{ file, code }`, the code dedented.
 */
function markedSnippets(page: string): { file: string; code: string }[] {
  const lines = read(page).split('\n')
  const found: { file: string; code: string }[] = []
  lines.forEach((line, i) => {
    const file = /^\s*<!-- the file (\S+), verbatim/.exec(line)?.[1]
    const fence = /^(\s*)```tsx?$/.exec(lines[i + 1] ?? '')
    if (!file) return
    if (!fence) throw new Error(`${page}:${i + 1}: a snippet's comment not followed by its fenced ts/tsx block`)
    const end = lines.findIndex((text, j) => j > i + 1 && text.trim() === '```')
    const code = lines.slice(i + 2, end).map((text) => text.slice(fence[1]!.length))
    found.push({ file, code: `${code.join('\n')}\n` })
  })
  return found
}

it('each sample a docs page marks as a file of examples/snippets/ is that file verbatim (the one the Storybook page shows)', () => {
  const marked = DOC_PAGES.flatMap((page) => markedSnippets(page).map((snippet) => ({ page, ...snippet })))
  expect(marked.length).toBeGreaterThanOrEqual(6)
  for (const { page, file, code } of marked) expect(code, `${page}: ${file}`).toBe(read(file))
})

/** A markdown file's lines, those of fenced code blocks blank and inline code spans removed (line numbers kept). */
function prose(text: string): string[] {
  const lines: string[] = []
  let fence: string | undefined
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      lines.push('')
      continue
    }
    if (marker) {
      fence = marker
      lines.push('')
      continue
    }
    lines.push(line.replace(/`+[^`]*`+/g, ''))
  }
  return lines
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fence: string | undefined
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker
      continue
    }
    const heading = fence ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Each relative link or image of `file` (its text `text`) that does not resolve to a file (and, for `#anchor`, a heading of it). */
function brokenLinks(file: string, text = read(file)): string[] {
  const broken: string[] = []
  prose(text).forEach((line, i) => {
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue
      const [path, anchor] = target.split('#') as [string, string | undefined]
      const resolved = path ? resolve(ROOT, dirname(file), decodeURIComponent(path)) : join(ROOT, file)
      const headings = () => anchorsOf(path ? readFileSync(resolved, 'utf8') : text)
      const where = `${file}:${i + 1}: ${target}`
      if (path && (!resolved.startsWith(ROOT) || !existsSync(resolved))) broken.push(`${where} (no file ${relative(ROOT, resolved)})`)
      else if (anchor !== undefined && resolved.endsWith('.md') && !headings().has(anchor))
        broken.push(`${where} (no heading #${anchor} in ${relative(ROOT, resolved)})`)
    }
  })
  return broken
}

describe('the README and the reference pages', () => {
  it('the README reads in ten minutes: at most 400 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(400)
  })

  it('every relative link and picture of README.md and docs/*.md resolves to a file, and its #anchor to a heading there', () => {
    const files = ['README.md', ...DOC_PAGES]
    expect(files.length).toBeGreaterThan(10)
    expect(files.flatMap((file) => brokenLinks(file))).toEqual([])
  })

  it('the link check sees a missing file and a missing heading', () => {
    // The checker on its own input: a page whose links are known to be wrong must fail both ways.
    const anchors = anchorsOf('# `<MD2Model>`: props\n## Coming from three.js\n## Coming from three.js\n```\n# not a heading\n```\n')
    expect([...anchors]).toEqual(['md2model-props', 'coming-from-threejs', 'coming-from-threejs-1'])
    expect(prose('a [link](x.md) `[code](y.md)`\n```\n[in a fence](z.md)\n```')).toEqual(['a [link](x.md) ', '', '', ''])
    const page =
      '# Here\n[a](nope.md) [b](model.md#no-such-heading) [c](model.md#md2model) [d](#here) [e](#nowhere) ![f](images/none.png)\n'
    expect(brokenLinks('docs/page.md', page)).toEqual([
      'docs/page.md:2: nope.md (no file docs/nope.md)',
      'docs/page.md:2: model.md#no-such-heading (no heading #no-such-heading in docs/model.md)',
      'docs/page.md:2: #nowhere (no heading #nowhere in docs/page.md)',
      'docs/page.md:2: images/none.png (no file docs/images/none.png)',
    ])
  })

  it('every docs page is linked from the README and rendered by a Storybook page (a ?raw import into a stories/ or stories/Reference/ MDX page)', () => {
    const readme = read('README.md')
    const mdxPages = ['stories', 'stories/Reference'].flatMap((folder) =>
      readdirSync(join(ROOT, folder))
        .filter((name) => name.endsWith('.mdx'))
        .map((name) => `${folder}/${name}`),
    )
    const rendered = new Set(
      mdxPages.flatMap((page) =>
        [...read(page).matchAll(/from\s+['"]([^'"]+\.md)\?raw['"]/g)].map((match) => relative(ROOT, join(ROOT, dirname(page), match[1]!))),
      ),
    )
    expect(DOC_PAGES.filter((page) => !readme.includes(`](${page})`))).toEqual([])
    expect(DOC_PAGES.filter((page) => !rendered.has(page))).toEqual([])
  })

  it('a docs page as Storybook shows it: links to pages and files rewritten, code spans on one line, intraword underscores escaped', () => {
    const page =
      "See [the crowd](crowds.md#on-the-gpu), [a file](../src/core/index.ts), ![x](images/quake2.png), [here](#top).\nref_gl's `R_Draw\n  AliasModel` and `GL_DrawAliasFrameLerp`.\n```ts\nconst snake_case = 1\n```\n"
    expect(referenceMarkdown(page)).toBe(
      'See [the crowd](?path=/docs/reference-crowds-on-the-gpu--docs), ' +
        '[a file](https://github.com/react-three-md2/react-three-md2/blob/main/src/core/index.ts), ![x](images/quake2.png), [here](#top).\n' +
        "ref\\_gl's `R_Draw AliasModel` and `GL_DrawAliasFrameLerp`.\n```ts\nconst snake_case = 1\n```\n",
    )
  })

  it("Storybook's links between docs pages (?path=/docs/…) lead to pages that exist, and each docs page's title is its page's", () => {
    const mdxPages = ['stories', 'stories/Reference'].flatMap((folder) =>
      readdirSync(join(ROOT, folder))
        .filter((name) => name.endsWith('.mdx'))
        .map((name) => read(`${folder}/${name}`)),
    )
    const titles = mdxPages.map((page) => /<Meta title="([^"]+)"/.exec(page)?.[1])
    const ids = new Set(
      titles.map(
        (title) =>
          `${title
            ?.toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-+|-+$/g, '')}--docs`,
      ),
    )
    expect(Object.keys(REFERENCE_TITLES).sort()).toEqual(DOC_PAGES.map((page) => page.slice('docs/'.length)))
    expect(Object.values(REFERENCE_TITLES).filter((title) => !titles.includes(title))).toEqual([])
    const links = [...mdxPages, ...DOC_PAGES.map((page) => referenceMarkdown(read(page)))].flatMap((text) =>
      [...text.matchAll(/\(\?path=\/docs\/([\w-]+)\)/g)].map((match) => match[1]!),
    )
    expect(links.length).toBeGreaterThan(20)
    expect(links.filter((id) => !ids.has(id))).toEqual([])
  })
})
