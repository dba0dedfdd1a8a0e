import type { ArgTypes } from '@storybook/react-vite'

/** What `?md2-animations` exports for a model file (see `.storybook/md2-animations-plugin.ts`). */
export interface ModelInfo {
  animationNames: readonly string[]
  frameCount: number
}

/**
 * Controls for <MD2Model> props. The animation select lists the names found in the model file (or
 * in its .anm table); the frame scrubber runs over the file's own frame count; the skin select
 * offers the given skin files (labelled by their keys), the originals shipped with the model.
 */
export function modelArgTypes(info: ModelInfo, skins?: Record<string, string>): ArgTypes {
  return {
    animation: {
      control: 'select',
      options: [...info.animationNames],
      description: `One of the ${info.animationNames.length} animations found in the file`,
    },
    skin: skins
      ? {
          control: { type: 'select', labels: invert(skins) },
          options: Object.values(skins),
          description: `Skin: one of the ${Object.keys(skins).length} original image files shipped with the model`,
        }
      : { control: false },
    frame: {
      control: { type: 'range', min: 0, max: info.frameCount - 1, step: 1 },
      description: `Show one still frame (0–${info.frameCount - 1}); overrides animation`,
    },
    fps: {
      control: { type: 'range', min: 1, max: 60, step: 1 },
      description: "Keyframes per second (default: the animation's own, 10 for Quake II)",
    },
    speed: { control: { type: 'range', min: 0.05, max: 4, step: 0.05 } },
    crossfade: {
      control: { type: 'range', min: 0, max: 1, step: 0.05 },
      description: 'Seconds a change of animation fades over (0: a cut)',
    },
    reverse: { control: 'boolean' },
    scale: { control: { type: 'range', min: 0.1, max: 3, step: 0.05 } },
    playing: { control: 'boolean' },
    loop: { control: 'boolean' },
    interpolate: { control: 'boolean' },
    wireframe: { control: 'boolean' },
    color: { control: 'color' },
    url: { control: false },
    model: { control: false },
    animationTable: { control: false },
    material: { control: false },
    onAnimationEnd: { control: false },
    onFrame: { control: false },
    onLoop: { control: false },
    onSkinError: { control: false },
    controller: { control: false },
    controllerRef: { control: false },
    sync: { control: false },
  }
}

function invert(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([label, value]) => [value, label]))
}

/** The playback args every model story starts from (Quake II's 10 keyframes a second, playing, looping). */
export const PLAYBACK_ARGS = { fps: 10, playing: true, loop: true, interpolate: true, speed: 1, scale: 1, wireframe: false }
