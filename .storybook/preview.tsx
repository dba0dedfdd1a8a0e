import type { Preview } from '@storybook/react-vite'
import { MINIMAL_VIEWPORTS } from 'storybook/viewport'
import { isRendererKind, StoryRenderer } from '../stories/support/renderers'
import { Stage, type StageOptions } from '../stories/support/Stage'

interface StoryExpects {
  failedRequests?: string[]
  messages?: string[]
}

/** Both stories' expectations, each entry once. */
function mergeExpects(a: StoryExpects | undefined, b: StoryExpects | undefined): StoryExpects | undefined {
  if (!a || !b) return a ?? b
  const union = (x: string[] = [], y: string[] = []) => [...new Set([...x, ...y])]
  return { failedRequests: union(a.failedRequests, b.failedRequests), messages: union(a.messages, b.messages) }
}

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true, sort: 'none' },
    options: {
      storySort: { order: ['Introduction', 'Quake II', 'UFO:AI', 'Animation', 'Skins', 'Writer', 'Crowds', 'Games', 'Tools', 'Failures'] },
    },
    viewport: {
      options: {
        ...MINIMAL_VIEWPORTS,
        // vitest.config.ts runs the story tests at this size: software WebGL draws it quickly.
        pixelTests: { name: 'Pixel tests (640×480)', styles: { width: '640px', height: '480px' }, type: 'desktop' },
      },
    },
  },
  tags: ['autodocs'],
  // Which of three.js's renderers draws every story (toolbar, or `&globals=renderer:webgpu` in the URL).
  globalTypes: {
    renderer: {
      description: "three.js's renderer for every story",
      toolbar: {
        title: 'Renderer',
        icon: 'component',
        dynamicTitle: true,
        items: [
          { value: 'webgl', title: 'WebGLRenderer' },
          { value: 'webgpu', title: 'WebGPURenderer (WebGPU)' },
          { value: 'webgpu-webgl2', title: 'WebGPURenderer (WebGL2 backend)' },
        ],
      },
    },
  },
  initialGlobals: { renderer: 'webgl' },
  decorators: [
    // What a story that fails on purpose expects (failed requests, console messages): the story
    // tests fail on anything else a visitor would see go wrong (test/browser/story-guards.ts). A docs
    // page shows all its stories at once, in no set order: there every story's expectations apply.
    (Story, { parameters, viewMode }) => {
      const page = globalThis as { __md2StoryExpects?: StoryExpects }
      const expected = parameters.expected as StoryExpects | undefined
      page.__md2StoryExpects = viewMode === 'docs' ? mergeExpects(page.__md2StoryExpects, expected) : expected
      return <Story />
    },
    // Every story is R3F content: wrap it in the shared <Canvas>. `parameters.stage` moves the camera;
    // `stage: false` leaves a story that brings its own <Canvas> alone.
    (Story, { parameters, globals }) => {
      const renderer = isRendererKind(globals.renderer) ? globals.renderer : 'webgl'
      return (
        <StoryRenderer.Provider value={renderer}>
          {parameters.stage === false ? (
            <Story />
          ) : (
            // A new canvas when the renderer changes: a canvas keeps the context it was first given.
            <Stage key={renderer} renderer={renderer} {...((parameters.stage ?? {}) as StageOptions)}>
              <Story />
            </Stage>
          )}
        </StoryRenderer.Provider>
      )
    },
  ],
}

export default preview
