import type { Material, Texture, WebGLProgramParametersWithUniforms } from 'three'
import { GLOW_FLOOR, POWERSUIT_SCALE } from '../../core/lighting/quake2Light.js'
import { SHADEDOT_NUDGE, SHADEDOT_QUANT } from '../../core/lighting/shadeDots.js'

/** What the GPU decode reads: the model's frame texture and table, and the shared normal and light tables. */
export interface GpuDecodeInputs {
  /** RGBA8: one texel per vertex per frame (x, y, z, normal index), one frame per row (see `MD2GpuFrames`). */
  frames: Texture
  /** RGBA32F: each frame's scale and translate. */
  table: Texture
  /** RGBA32F, 256 × 1: Quake II's normals, Y-up. */
  normals: Texture
  /** R32F, 256 × 16: Quake II's light table. */
  light: Texture
  /** MD2 vertices per frame. */
  vertices: number
}

/**
 * A follower crowd placed on its leader's tag by the shader (`CrowdLink`), as its decodes read it: the tag's placement
 * in each of the leader's frames, and the leader's rows (`md2TagClock`, `md2TagRange`, `md2TagFade`, beside the
 * follower's own) posed at the leader's time.
 */
export interface CrowdTagDecode {
  /** RGBA32F, 3 texels a frame, a row each: the tag's Y-up x, y and z axes, with the origin's x, y and z in their w. */
  texture: Texture
  /** The leader's time: its rows' times count from its epoch. */
  time: { value: number }
  /** Patches the GLSL decode's program (its uniforms, its vertex shader) to place each vertex on the tag (`tagDecodeGLSL.ts`). */
  patch(shader: WebGLProgramParametersWithUniforms): void
  /** Part of the program's key: one program per tag texture. */
  key: string
}

/** The decode reading each vertex from the atlas of poses (`PoseAtlas`) instead of the keyframes: its program's patch. */
export interface CrowdAtlasDecode {
  patch(shader: WebGLProgramParametersWithUniforms): void
}

export interface GpuDecodeOptions {
  /** The crowd's uniforms (its time, the view it culls against: `CrowdShaderState`), shared by its materials, and its tag. */
  state: {
    uniforms: Record<string, { value: unknown }>
    tag?: CrowdTagDecode
    /** Set while the rows' poses are read from the atlas of poses the CPU worked out (`PoseAtlas`): one texel a vertex. */
    atlas?: CrowdAtlasDecode
    /** The materials decoding by this state, given their programs again when `atlas` changes. */
    materials?: Material[]
  }
  /** Write Quake II's `shadedots × shadelight` colour. */
  quake2Light?: boolean
  /** Push the vertices out along their normals (a power-up shell). */
  shell?: boolean
  /** Blend the normals (lit materials). */
  normals?: boolean
  /** Colour each instance by its `md2Light` rgb, taken as linear (each instance's shell colour). */
  instanceColor?: boolean
  /**
   * Flatten the pose onto the floor as Quake II's blob shadow (GL_DrawAliasShadow), by each instance's
   * `md2Light`: the shade vector's Quake x and y, and the origin's height above the floor in model units.
   */
  shadow?: boolean
}

/**
 * The GPU decode for `WebGLRenderer`, in GLSL patched into three's shader chunks: each vertex's two
 * keyframes (and the two of a crossfade's outgoing pose) read from the frames texture, dequantized,
 * blended and turned to Y-up exactly as the CPU kernel does. The same steps in TSL: `gpuDecodeTSL.ts`.
 */
export function decodeInGLSL(material: Material, inputs: GpuDecodeInputs, options: GpuDecodeOptions): void {
  const previous = material.onBeforeCompile.bind(material)
  material.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer) => {
    previous(shader, renderer)
    shader.uniforms.md2FrameBytes = { value: inputs.frames }
    shader.uniforms.md2Table = { value: inputs.table }
    shader.uniforms.md2Normals = { value: inputs.normals }
    shader.uniforms.md2LightTable = { value: inputs.light }
    shader.uniforms.md2Vertices = { value: inputs.vertices }
    Object.assign(shader.uniforms, options.state.uniforms)
    shader.vertexShader = patchVertexShader(shader.vertexShader, options)
    options.state.tag?.patch(shader)
    options.state.atlas?.patch(shader)
    // One colour per instance, not interpolated (an interpolated constant can come out a level off).
    if (options.instanceColor)
      shader.fragmentShader = shader.fragmentShader
        .replace('void main() {', 'flat varying vec3 md2InstanceColor;\nvoid main() {')
        .replace('#include <color_fragment>', '#include <color_fragment>\n  diffuseColor.rgb *= md2InstanceColor;')
  }
  const key = material.customProgramCacheKey.bind(material)
  material.customProgramCacheKey = () =>
    `${key()}|md2-gpu${options.quake2Light ? '-q2' : ''}${options.shell ? '-shell' : ''}${options.normals ? '-n' : ''}${options.instanceColor ? '-c' : ''}${options.shadow ? '-shadow' : ''}${options.state.tag?.key ?? ''}${options.state.atlas ? '-atlas' : ''}`
  options.state.materials?.push(material)
}

/**
 * The GLSL decode, its comments kept here (they would ship in the string): the frames texture, the frame table,
 * the normals and the light table; the crowd's time (seconds from its epoch), frames per block of texture rows,
 * and the view to cull against (six planes in the crowd's space, the model's all-frames sphere), if `md2Cull`.
 * Per instance its row (`instanceRows.ts`): its animation as stored, or a pose worked out already, and its light.
 * `md2Place`: keyframe f as (block, row) of the frames texture (the half keeps the division off a boundary).
 * `md2Texel`: a vertex's 4 bytes (x, y, z, normal index) as the whole numbers they are. `md2YUp`: Quake's x, y, z
 * drawn as y, z, x. `md2ReadFaded`: one keyframe of the outgoing pose, through the frame table. `md2RangeFrame`:
 * the keyframe at a playhead count of a row's range, as `rangeFrame`. `md2Pose`: a row's pose at a time by `CrowdClock`'s
 * rules (keyframes from and to, the blend t; the crossfade's weight, `fadeOutWeight`'s ease): the instance's own, or
 * (a follower placed on its leader's tag: `tagDecodeGLSL.ts`) its leader's instance's. `md2Culled`: hidden, or the
 * sphere outside a plane. `md2Decode`: a culled instance's triangles all fall on one point, first (nothing is drawn
 * of them, nor read for them); the keyframes dequantized and blended with the CPU kernel's coefficients (each
 * keyframe's scale times its share, the blended translate), crossfaded; a shell stands off the body along the
 * normals of the frame blended towards; a shadow moves each vertex across by the shade vector times its height
 * above the floor, then lays it 1 unit above it; Quake II lights a vertex by its normal in the frame blended
 * towards, from the row of its world yaw (its +Z seen from above: `shadeDotsRow`'s step count, nudged the same
 * way), by its row's shadelight plus the crowd's glow pulse (never below `GLOW_FLOOR` of it).
 */
const DECLARATIONS = /* glsl */ `
uniform highp sampler2D md2FrameBytes;
uniform highp sampler2D md2Table;
uniform highp sampler2D md2Normals;
uniform highp sampler2D md2LightTable;
uniform int md2Vertices;
uniform float md2Time;
uniform float md2Rows;
uniform float md2Cull;
uniform vec4 md2Sphere;
uniform vec4 md2Planes[6];
uniform float md2Glow;
attribute vec4 md2Clock;
attribute vec4 md2Range;
attribute vec4 md2Fade;
attribute vec4 md2Light;
vec3 md2Position;
vec3 md2ObjectNormal = vec3(0.0, 1.0, 0.0);
vec3 md2Color;
#ifdef MD2_INSTANCE_COLOR
flat varying vec3 md2InstanceColor;
#endif
vec2 md2Place(float f) {
float block = floor((f + 0.5) / md2Rows);
return vec2(block, f - block * md2Rows);
}
vec4 md2Texel(vec2 frame, int vertex) {
return floor(texelFetch(md2FrameBytes, ivec2(int(frame.x) * md2Vertices + vertex, int(frame.y)), 0) * 255.0 + 0.5);
}
vec3 md2Normal(float index) { return texelFetch(md2Normals, ivec2(int(index), 0), 0).xyz; }
vec3 md2YUp(vec3 q) { return vec3(q.y, q.z, q.x); }
vec3 md2ReadFaded(vec2 frame, int vertex, out float normalIndex) {
vec4 b = md2Texel(frame, vertex);
ivec2 at = ivec2(int(frame.x) * 2, int(frame.y));
normalIndex = b.w;
return md2YUp(b.xyz * texelFetch(md2Table, at, 0).xyz + texelFetch(md2Table, at + ivec2(1, 0), 0).xyz);
}
float md2Linear(float c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
float md2RangeFrame(vec4 clock, vec4 range, float count, bool loop, bool reverse) {
float len = clock.w;
float step = loop ? count - floor((count + 0.5) / len) * len : min(count, len - 1.0);
return reverse ? range.x + len - 1.0 - step : range.x + step;
}
void md2Pose(vec4 clock, vec4 range, float time, out float from, out float to, out float t, out float fade) {
int flags = int(range.y + 0.5);
if ((flags & 8) != 0) {
from = clock.x; to = clock.y; t = clock.z; fade = range.w;
return;
}
bool loop = (flags & 1) != 0;
float len = clock.w;
float position = clock.x;
if (clock.z > 0.0) position += (time - clock.y) * clock.z;
if (!loop) { if (clock.z > 0.0 && position >= len - 1.0) position = len - 1.0; }
else if (position >= len) position -= floor(position / len) * len;
float count = floor(position);
bool reverse = (flags & 2) != 0;
from = md2RangeFrame(clock, range, count, loop, reverse);
to = !loop && count >= len - 1.0 ? from : md2RangeFrame(clock, range, count + 1.0, loop, reverse);
t = (flags & 4) != 0 ? 0.0 : position - count;
float elapsed = time - range.z;
fade = range.w > 0.0 && elapsed < range.w ? (exp(-2.0 * elapsed / range.w) - 0.1353352832366127) / 0.8646647167633873 : 0.0;
}
bool md2Culled() {
if ((int(md2Range.y + 0.5) & 16) != 0) return true;
if (md2Cull < 0.5) return false;
#ifdef USE_INSTANCING
vec3 centre = (instanceMatrix * vec4(md2Sphere.xyz, 1.0)).xyz;
float radius = md2Sphere.w * sqrt(max(dot(instanceMatrix[0].xyz, instanceMatrix[0].xyz), max(dot(instanceMatrix[1].xyz, instanceMatrix[1].xyz), dot(instanceMatrix[2].xyz, instanceMatrix[2].xyz))));
for (int p = 0; p < 6; p++) if (dot(md2Planes[p].xyz, centre) + md2Planes[p].w < -radius) return true;
#endif
return false;
}
void md2Decode() {
int v = int(position.x);
float md2ToNormal;
#ifdef MD2_POSE_ATLAS
md2ToNormal = md2FromAtlas(v);
#else
if (md2Culled()) { md2Position = vec3(0.0); return; }
float from; float to; float t; float fade;
md2Pose(md2Clock, md2Range, md2Time, from, to, t, fade);
vec2 fa = md2Place(from);
vec2 fb = md2Place(to);
vec4 a = md2Texel(fa, v);
vec4 b = md2Texel(fb, v);
ivec2 ta = ivec2(int(fa.x) * 2, int(fa.y));
ivec2 tb = ivec2(int(fb.x) * 2, int(fb.y));
vec3 scaleA = texelFetch(md2Table, ta, 0).xyz * (1.0 - t);
vec3 scaleB = texelFetch(md2Table, tb, 0).xyz * t;
vec3 shift = texelFetch(md2Table, ta + ivec2(1, 0), 0).xyz * (1.0 - t) + texelFetch(md2Table, tb + ivec2(1, 0), 0).xyz * t;
md2Position = md2YUp(a.xyz * scaleA + b.xyz * scaleB + shift);
#ifdef MD2_NORMALS
md2ObjectNormal = mix(md2Normal(a.w), md2Normal(b.w), t);
#endif
if (fade > 0.0) {
float na; float nb;
vec2 ga = md2Place(md2Fade.x);
vec2 gb = md2Place(md2Fade.y);
vec3 outgoing = mix(md2ReadFaded(ga, v, na), md2ReadFaded(gb, v, nb), md2Fade.z);
md2Position = mix(md2Position, outgoing, fade);
#ifdef MD2_NORMALS
md2ObjectNormal = mix(md2ObjectNormal, mix(md2Normal(na), md2Normal(nb), md2Fade.z), fade);
#endif
}
md2ToNormal = b.w;
#endif
#ifdef MD2_SHELL
md2Position += md2Normal(md2ToNormal) * POWERSUIT_SCALE;
#endif
#ifdef MD2_SHADOW
float rise = md2Position.y + md2Light.z;
md2Position = vec3(md2Position.x - md2Light.y * rise, 1.0 - md2Light.z, md2Position.z - md2Light.x * rise);
#endif
#ifdef MD2_INSTANCE_COLOR
md2InstanceColor = md2Light.rgb;
#endif
#ifdef MD2_QUAKE2_LIGHT
#ifdef USE_INSTANCING
vec3 facing = mat3(modelMatrix) * instanceMatrix[2].xyz;
#else
vec3 facing = modelMatrix[2].xyz;
#endif
float steps = atan(facing.x, facing.z) * SHADEDOT_STEPS_PER_RADIAN;
int row = int(steps + (steps < 0.0 ? -SHADEDOT_NUDGE : SHADEDOT_NUDGE)) & (SHADEDOT_QUANT - 1);
vec3 shade = max(md2Light.rgb + md2Glow, GLOW_FLOOR * md2Light.rgb);
float dots = texelFetch(md2LightTable, ivec2(int(md2ToNormal), row), 0).r;
vec3 c = clamp(dots * shade, 0.0, 1.0);
md2Color = vec3(md2Linear(c.r), md2Linear(c.g), md2Linear(c.b));
#endif
}
`

/** Quake II light's constants, as the CPU path has them (`SHADEDOT_…`, `GLOW_FLOOR`). */
const QUAKE2_LIGHT_DEFINES = [
  'MD2_QUAKE2_LIGHT',
  `SHADEDOT_QUANT ${SHADEDOT_QUANT}`,
  `SHADEDOT_STEPS_PER_RADIAN ${(SHADEDOT_QUANT / (2 * Math.PI)).toFixed(9)}`,
  `SHADEDOT_NUDGE ${SHADEDOT_NUDGE.toExponential()}`,
  `GLOW_FLOOR ${GLOW_FLOOR.toFixed(2)}`,
]
  .map((define) => `#define ${define}\n`)
  .join('')

function patchVertexShader(source: string, options: GpuDecodeOptions): string {
  const defines =
    (options.quake2Light ? QUAKE2_LIGHT_DEFINES : '') +
    (options.normals ? '#define MD2_NORMALS\n' : '') +
    (options.instanceColor ? '#define MD2_INSTANCE_COLOR\n' : '') +
    (options.shadow ? '#define MD2_SHADOW\n' : '') +
    (options.shell ? `#define MD2_SHELL\n#define POWERSUIT_SCALE ${POWERSUIT_SCALE.toFixed(1)}\n` : '')
  let out = defines + DECLARATIONS + source.replace('void main() {', 'void main() {\n  md2Decode();')
  out = out.replace('#include <begin_vertex>', 'vec3 transformed = md2Position;')
  out = out.replace('#include <beginnormal_vertex>', 'vec3 objectNormal = md2ObjectNormal;')
  // Older three.js releases declare vColor as a vec3, newer ones as a vec4: set its colour channels only.
  if (options.quake2Light)
    out = out.replace(
      '#include <color_vertex>',
      '#include <color_vertex>\n  #if defined(USE_COLOR) || defined(USE_COLOR_ALPHA)\n  vColor.rgb = md2Color;\n  #endif',
    )
  return out
}
