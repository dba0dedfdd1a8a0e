import { expect } from 'storybook/test'
import { setStoryArgs } from './live-args'
import { difference, findStage, type Picture, type StageProbe } from './pixels'

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

/**
 * A play function for a frame scrubber: frame 0 is still, `frame` shows something else (and holds
 * still), and frame 0 again is the same picture to the pixel.
 */
export function scrubPlay(frame: number, what: string) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const first = await stage.expectStill()
    setStoryArgs({ frame })
    const other = await stage.settle((p) => difference(first, p) > 200, `frame ${frame} (${what}) to show`)
    await stage.expectStill()
    setStoryArgs({ frame: 0 })
    await expectPictureAgain(stage, other, first, 'frame 0 to show again')
  }
}

/** After going back to what `first` showed: the picture changes from `previous` and is `first` to the pixel. */
export async function expectPictureAgain(stage: StageProbe, previous: Picture, first: Picture, what: string): Promise<void> {
  const again = await stage.settleDrawn((p) => difference(previous, p) > 200, what)
  await expect(difference(first, again), `${what}: pixels differing from the first picture`).toBe(0)
}

/** The play function most stories share: the model is drawn, and it moves. */
export async function expectDrawnAndAnimated({ canvasElement }: { canvasElement: HTMLElement }): Promise<void> {
  const stage = await findStage(canvasElement)
  await stage.expectModel()
  await stage.expectAnimated()
}

/** A play function that waits for the model to be drawn, then runs `check` on the story's stage. */
export function playOnModel(check: (stage: StageProbe) => Promise<void>) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }): Promise<void> => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    await check(stage)
  }
}

/**
 * Setting `args` changes the picture from `first` by more than `least` pixels (what they take away is drawn),
 * and setting `back` shows `first` again to the pixel. Returns the changed picture.
 */
export async function expectArgsUndone(
  stage: StageProbe,
  first: Picture,
  change: { args: Record<string, unknown>; back: Record<string, unknown>; least: number; what: string },
): Promise<Picture> {
  setStoryArgs(change.args)
  const changed = await stage.settleDrawn((p) => difference(first, p) > change.least, change.what)
  setStoryArgs(change.back)
  await expectPictureAgain(stage, changed, first, `${change.what}, undone`)
  return changed
}
