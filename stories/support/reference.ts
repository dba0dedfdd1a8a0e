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
  return markdown.replace(/(\]\()([^)\s]+)(\))/g, (whole, open: string, target: string, close: string) => {
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('images/')) return whole
    const [path = '', anchor] = target.split('#')
    const title = REFERENCE_TITLES[path]
    if (title) return `${open}?path=/docs/${docsId(title)}${close}`
    const file = new URL(path, 'http://repository/docs/').pathname.slice(1)
    return `${open}${REPOSITORY}${file}${anchor ? `#${anchor}` : ''}${close}`
  })
}
