/**
 * The reference pages, docs/*.md, as Storybook shows them (stories/Reference/*.mdx): the same Markdown a
 * reader meets on GitHub, with its links turned into links that work inside Storybook.
 */

/** Each docs page and its title under Reference/ (the `<Meta title>` of its page in stories/Reference/). */
export const REFERENCE_TITLES: Readonly<Record<string, string>> = {
  'model.md': 'MD2Model props and looks',
  'animation.md': 'Animation control',
  'attachments.md': 'Weapons, heads and tags',
  'loading.md': 'Loading and caching',
  'skins.md': 'Skins',
  'errors.md': 'Errors',
  'quake2-look.md': 'The Quake II look',
  'crowds.md': 'Crowds on the GPU',
  'webgpu.md': 'WebGPU',
  'archives.md': 'Archives and export',
  'writing-and-converting.md': 'Writing and converting',
  'cli.md': 'Command line',
  'three.md': 'three.js',
  'core.md': 'Core',
  'entry-points.md': 'Entry points and sizes',
  'benchmarks.md': 'Benchmarks',
  'limits.md': 'Limits',
  'stories.md': 'Stories',
  'testing.md': 'Testing',
  'architecture.md': 'Architecture',
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
  return markdown.replace(/(\]\()([^)\s]+)(\))/g, (whole, open: string, target: string, close: string) => {
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('images/')) return whole
    const [path = '', anchor] = target.split('#')
    const title = REFERENCE_TITLES[path]
    if (title) return `${open}?path=/docs/${docsId(`Reference/${title}`)}${close}`
    const file = new URL(path, 'http://repository/docs/').pathname.slice(1)
    return `${open}${REPOSITORY}${file}${anchor ? `#${anchor}` : ''}${close}`
  })
}
