import { findStage } from './pixels'

/** Tags of a story that runs as a test but is not listed for visitors (nor on its docs page). */
export const TEST_ONLY = ['!dev', '!autodocs']

interface PlayableStory {
  args?: object
  tags?: string[]
  // Any story's play function: only replaced here, never called.
  play?: unknown
}

/**
 * A story's two faces. Play functions that drive props (switch skins, scrub frames) would take the
 * story out of a visitor's hands: the visitor sees `visible` (same args, a play function that only
 * checks the model is drawn); `check` runs the driving play function as a test only.
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
    check: { ...story, tags: [...(story.tags ?? []), ...TEST_ONLY] },
  }
}
