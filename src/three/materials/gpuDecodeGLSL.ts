import type { Material, Texture, WebGLProgramParametersWithUniforms } from 'three'
import { POWERSUIT_SCALE } from '../../core/lighting/quake2Light.js'

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

export interface GpuDecodeOptions {
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
export function decodeInGLSL(material: Material, inputs: GpuDecodeInputs, options: GpuDecodeOptions = {}): void {
  const previous = material.onBeforeCompile.bind(material)
  material.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer) => {
    previous(shader, renderer)
    shader.uniforms.md2FrameBytes = { value: inputs.frames }
    shader.uniforms.md2Table = { value: inputs.table }
    shader.uniforms.md2Normals = { value: inputs.normals }
    shader.uniforms.md2LightTable = { value: inputs.light }
    shader.uniforms.md2Vertices = { value: inputs.vertices }
    shader.vertexShader = patchVertexShader(shader.vertexShader, options)
    // One colour per instance, not interpolated (an interpolated constant can come out a level off).
    if (options.instanceColor)
      shader.fragmentShader = shader.fragmentShader
        .replace('void main() {', 'flat varying vec3 md2InstanceColor;\nvoid main() {')
        .replace('#include <color_fragment>', '#include <color_fragment>\n  diffuseColor.rgb *= md2InstanceColor;')
  }
  const key = material.customProgramCacheKey.bind(material)
  material.customProgramCacheKey = () =>
    `${key()}|md2-gpu${options.quake2Light ? '-q2' : ''}${options.shell ? '-shell' : ''}${options.normals ? '-n' : ''}${options.instanceColor ? '-c' : ''}${options.shadow ? '-shadow' : ''}`
}

const DECLARATIONS = /* glsl */ `
uniform highp sampler2D md2FrameBytes;
uniform highp sampler2D md2Table;
uniform highp sampler2D md2Normals;
uniform highp sampler2D md2LightTable;
uniform int md2Vertices;
// Per instance: where its two keyframes are (block, row each) and the same for a crossfade's outgoing
// pair; the blends (t, the outgoing t, the outgoing weight, the light table row); the two keyframes'
// scales with the blend folded in, and their blended translate (the CPU kernel's coefficients); the shadelight.
attribute vec4 md2Frames;
attribute vec4 md2FadeFrames;
attribute vec4 md2Blend;
attribute vec3 md2ScaleA;
attribute vec3 md2ScaleB;
attribute vec3 md2Shift;
attribute vec4 md2Light;
vec3 md2Position;
vec3 md2ObjectNormal = vec3(0.0, 1.0, 0.0);
vec3 md2Color;
#ifdef MD2_INSTANCE_COLOR
flat varying vec3 md2InstanceColor;
#endif
// A vertex's 4 bytes (x, y, z, normal index) as the whole numbers they are.
vec4 md2Texel(vec2 frame, int vertex) {
  return floor(texelFetch(md2FrameBytes, ivec2(int(frame.x) * md2Vertices + vertex, int(frame.y)), 0) * 255.0 + 0.5);
}
vec3 md2Normal(float index) { return texelFetch(md2Normals, ivec2(int(index), 0), 0).xyz; }
// Quake's x, y, z drawn as y, z, x (Y up).
vec3 md2YUp(vec3 q) { return vec3(q.y, q.z, q.x); }
// One keyframe of the outgoing pose, through the frame table (a crossfade only).
vec3 md2ReadFaded(vec2 frame, int vertex, out float normalIndex) {
  vec4 b = md2Texel(frame, vertex);
  ivec2 at = ivec2(int(frame.x) * 2, int(frame.y));
  normalIndex = b.w;
  return md2YUp(b.xyz * texelFetch(md2Table, at, 0).xyz + texelFetch(md2Table, at + ivec2(1, 0), 0).xyz);
}
float md2Linear(float c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
void md2Decode() {
  // The geometry's position holds only the MD2 vertex each drawn vertex reads.
  int v = int(position.x);
  vec4 a = md2Texel(md2Frames.xy, v);
  vec4 b = md2Texel(md2Frames.zw, v);
  md2Position = md2YUp(a.xyz * md2ScaleA + b.xyz * md2ScaleB + md2Shift);
  #ifdef MD2_NORMALS
  md2ObjectNormal = mix(md2Normal(a.w), md2Normal(b.w), md2Blend.x);
  #endif
  if (md2Blend.z > 0.0) {
    float fa; float fb;
    vec3 outgoing = mix(md2ReadFaded(md2FadeFrames.xy, v, fa), md2ReadFaded(md2FadeFrames.zw, v, fb), md2Blend.y);
    md2Position = mix(md2Position, outgoing, md2Blend.z);
    #ifdef MD2_NORMALS
    md2ObjectNormal = mix(md2ObjectNormal, mix(md2Normal(fa), md2Normal(fb), md2Blend.y), md2Blend.z);
    #endif
  }
  #ifdef MD2_SHELL
  // A power-up shell stands off the body along the normals of the frame blended towards.
  md2Position += md2Normal(b.w) * POWERSUIT_SCALE;
  #endif
  #ifdef MD2_SHADOW
  // Each vertex moved across by the shade vector times its height above the floor, then laid 1 unit above it.
  float rise = md2Position.y + md2Light.z;
  md2Position = vec3(md2Position.x - md2Light.y * rise, 1.0 - md2Light.z, md2Position.z - md2Light.x * rise);
  #endif
  #ifdef MD2_INSTANCE_COLOR
  md2InstanceColor = md2Light.rgb;
  #endif
  #ifdef MD2_QUAKE2_LIGHT
  // Quake II lights a vertex by its normal in the frame being blended towards, from its yaw's row.
  float dots = texelFetch(md2LightTable, ivec2(int(b.w), int(md2Blend.w)), 0).r;
  vec3 c = clamp(dots * md2Light.rgb, 0.0, 1.0);
  md2Color = vec3(md2Linear(c.r), md2Linear(c.g), md2Linear(c.b));
  #endif
}
`

function patchVertexShader(source: string, options: GpuDecodeOptions): string {
  const defines =
    (options.quake2Light ? '#define MD2_QUAKE2_LIGHT\n' : '') +
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
