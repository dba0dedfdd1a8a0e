import { findStage } from './pixels'

interface PlayableStory {
  args?: object
  tags?: string[]
  // Any story's play function: only replaced here, never called.
  play?: unknown
}

/**
 * A story's two faces. Play functions that drive props (switch skins, scrub frames) would take the
 * story out of a visitor's hands: the visitor sees `visible` (same args, a play function that only
 * checks the model is drawn); `check` runs the driving play function, exported with the literal tags
 * `['!dev', '!autodocs']` (Storybook's indexer reads tags only as written) so it runs as a test only.
 */
export function splitStory<S extends PlayableStory>(story: S, visibleArgs?: S['args']): { visible: S; check: S } {
  return {
    visible: {
      ...story,
      args: { ...story.args, ...visibleArgs },
      play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
        const stage = await findStage(canvasElement)
        await stage.expectModel()
      },
    },
    check: story,
  }
}
