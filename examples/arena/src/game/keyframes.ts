import type { MD2ModelData } from 'react-three-md2'

/** The run's keyframes where a foot comes down (run2 and run5 of Quake II's player frames). */
export const FOOTFALLS: ReadonlySet<number> = new Set([41, 44])

/** The name of the animation a frame belongs to, as the model's frame names group them (stand, run, death1…). */
export function animationAt(model: MD2ModelData, frame: number): string {
  return model.animations.find((animation) => frame >= animation.start && frame <= animation.end)?.name ?? 'stand'
}
