/**
 * The reference pages, docs/*.md, as Storybook shows them (stories/Reference/*.mdx): the same Markdown a
 * reader meets on GitHub, with its links turned into links that work inside Storybook.
 */

/**
 * Each docs page and the title of the Storybook page that shows it (its `<Meta title>`): a page of its own under
 * Reference/ (stories/Reference/), or a guide page that is that docs page with its live parts.
 */
export const REFERENCE_TITLES: Readonly<Record<string, string>> = {
  'model.md': 'Reference/MD2Model props and looks',
  'animation.md': 'Reference/Animation control',
  'attachments.md': 'Reference/Weapons, heads and tags',
  'loading.md': 'Reference/Loading and caching',
  'skins.md': 'Reference/Skins',
  'errors.md': 'Reference/Errors',
  'quake2-look.md': 'Reference/The Quake II look',
  'crowds.md': 'Reference/Crowds on the GPU',
  'physics.md': 'Games/Physics with rapier',
  'webgpu.md': 'Reference/WebGPU',
  'archives.md': 'Tools/Archives and export',
  'writing-and-converting.md': 'Reference/Writing and converting',
  'cli.md': 'Reference/Command line',
  'three.md': 'Reference/three.js',
  'core.md': 'Reference/Core',
  'entry-points.md': 'Reference/Entry points and sizes',
  'benchmarks.md': 'Reference/Benchmarks',
  'limits.md': 'Reference/Limits',
  'stories.md': 'Reference/Stories',
  'testing.md': 'Reference/Testing',
  'architecture.md': 'Reference/Architecture',
}

/** Where a link to a file of the repository goes from Storybook, which serves none of them. */
const REPOSITORY = 'https://github.com/react-three-md2/react-three-md2/blob/main/'

/** Storybook's id of a docs page: its title in lower case, each run of other characters a hyphen. */
const docsId = (title: string) =>
  `${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}--docs`

/**
 * `markdown` (a page of docs/) with its relative links made for Storybook: another docs page → its page
 * under Reference/, any other file of the repository → that file on GitHub. Pictures (`images/…`, served by
 * Storybook at /images) and links within the page stay as they are.
 */
export function referenceMarkdown(markdown: string): string {
  return inlineCodeOnOneLine(markdown).replace(/(\]\()([^)\s]+)(\))/g, (whole, open: string, target: string, close: string) => {
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('images/')) return whole
    const [path = '', anchor] = target.split('#')
    const title = REFERENCE_TITLES[path]
    if (title) return `${open}?path=/docs/${docsId(title)}${close}`
    const file = new URL(path, 'http://repository/docs/').pathname.slice(1)
    return `${open}${REPOSITORY}${file}${anchor ? `#${anchor}` : ''}${close}`
  })
}

/**
 * `markdown` as Storybook's Markdown block reads it as GitHub does: each inline code span that runs over a
 * line end put on one line (Markdown reads the line end as a space; the block shows code with a line end in
 * it as a code block), and underscores inside words escaped.
 */
function inlineCodeOnOneLine(markdown: string): string {
  const parts: string[] = []
  let prose: string[] = []
  let fence: string | undefined
  const flush = () => {
    const text = prose
      .join('\n')
      .replace(/(`+)([^`]+?)\1(?!`)/g, (span, ticks: string, code: string) =>
        code.includes('\n') ? `${ticks}${code.replace(/\s*\n\s*/g, ' ')}${ticks}` : span,
      )
    // Outside code spans and link targets, an underscore inside a word (ref_gl) escaped: the block's parser
    // takes it for emphasis, which then runs across the code spans after it (GitHub's does not).
    parts.push(
      ...text
        .split(/((`+)[^`]+?\2(?!`)|\]\([^)]*\))/)
        .map((piece, i) => (i % 3 === 0 ? piece.replace(/(?<=[\p{L}\p{N}])_(?=[\p{L}\p{N}])/gu, '\\_') : i % 3 === 1 ? piece : ''))
        .join('')
        .split('\n'),
    )
    prose = []
  }
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      parts.push(line)
      if (marker?.startsWith(fence)) fence = undefined
    } else if (marker) {
      flush()
      parts.push(line)
      fence = marker
    } else prose.push(line)
  }
  flush()
  return parts.join('\n')
}
