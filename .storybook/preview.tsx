import type { Preview } from '@storybook/react-vite'
import { MINIMAL_VIEWPORTS } from 'storybook/viewport'
import { Stage, type StageOptions } from '../stories/support/Stage'

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true, sort: 'none' },
    options: {
      storySort: { order: ['Introduction', 'Quake II', 'UFO:AI', 'Animation', 'Skins', 'Writer', 'Crowds', 'Tools', 'Failures'] },
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
  decorators: [
    // What a story that fails on purpose expects (failed requests, console messages): the story
    // tests fail on anything else a visitor would see go wrong (test/browser/story-guards.ts).
    (Story, { parameters }) => {
      ;(globalThis as { __md2StoryExpects?: unknown }).__md2StoryExpects = parameters.expected
      return <Story />
    },
    // Every story is R3F content: wrap it in the shared <Canvas>. `parameters.stage` moves the camera;
    // `stage: false` leaves a story that brings its own <Canvas> alone.
    (Story, { parameters }) =>
      parameters.stage === false ? (
        <Story />
      ) : (
        <Stage {...((parameters.stage ?? {}) as StageOptions)}>
          <Story />
        </Stage>
      ),
  ],
}

export default preview
