/**
 * The instance rows the shaders read, one interleaved buffer (one vertex buffer: WebGPU allows a pipeline
 * 8), 16 floats a row. A row holds an instance's animation as stored (`CrowdClock`'s row: the shader works
 * out its pose from the crowd's time), or a pose worked out already (`ROW_POSED`):
 * - `CLOCK`: where the playhead was (keyframes from the range's first), when (seconds from the crowd's epoch),
 *   its rate in keyframes per second (0: still), the range's length; posed: from, to, t, 1.
 * - `RANGE`: the range's first keyframe, the flags, the crossfade's start (from the epoch) and length (0: none);
 *   posed: 0, the flags, 0, the crossfade's weight.
 * - `FADE`: the crossfade's outgoing pose (from, to, t), and 0.
 * - `LIGHT`: Quake II light: the instance's shadelight (rgb, after minlight and fullbright: `CrowdLooks.writeLight`),
 *   stored or posed alike (the shader adds the glow's pulse and works out the light table's row from the instance's
 *   world yaw); a shell layer's colour; a shadow layer's shade vector (x, y) and height above the floor.
 */
export const CLOCK = 0
export const RANGE = 4
export const FADE = 8
export const LIGHT = 12
/** Floats per row. */
export const INSTANCE_STRIDE = 16
