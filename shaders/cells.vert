#version 330 core
// One instanced quad per cell (or per LOD block). Each instance carries its
// place in two consecutive stages; the shader interpolates, so animating
// costs the CPU nothing per cell.
layout(location = 0) in vec2 a_corner;  // unit quad, 0..1
layout(location = 1) in vec2 a_pa;      // top-left in stage A (cell units; < -1e29 hidden)
layout(location = 2) in vec2 a_pb;      // top-left in stage B
layout(location = 3) in vec4 a_col;     // rgba8 normalised; alpha 0 = padding
layout(location = 4) in vec2 a_sa;      // size in stage A (1,1 for cells)
layout(location = 5) in vec2 a_sb;      // size in stage B
layout(location = 6) in float a_wave;   // staged motion: this cell's wave (core/motion.hpp)

uniform float u_t;       // 0 = stage A, 1 = stage B
uniform vec4 u_xform;    // ndc = p * u_xform.xy + u_xform.zw
uniform float u_inset;   // gap around a cell, cell units
uniform int u_hover;     // instance id drawn highlighted, -1 none
uniform int u_id_base;   // first instance id of this draw
uniform vec2 u_fb_size;  // framebuffer pixels: NDC sizes -> pixels
uniform float u_waves;   // number of waves, <= 1: all cells move at once

out vec4 v_col;
out vec2 v_uv;
out vec2 v_size_px;
flat out int v_id;
flat out int v_hover;
out float v_fade;

void main() {
    bool ha = a_pa.x < -1e29;
    bool hb = a_pb.x < -1e29;
    // Staged motion: wave w of n moves while u_t runs from w/(n+1) to
    // (w+2)/(n+1) (ll::wave_t).
    float t = u_t;
    if (u_waves > 1.5) t = clamp((u_t - a_wave / (u_waves + 1.0)) * (u_waves + 1.0) * 0.5, 0.0, 1.0);
    t = smoothstep(0.0, 1.0, t);
    vec2 pa = ha ? a_pb : a_pa;
    vec2 pb = hb ? a_pa : a_pb;
    vec2 sa = a_sa, sb = a_sb;
    float fade = 1.0;
    if (ha && hb) fade = 0.0;
    else if (ha) fade = t;
    else if (hb) fade = 1.0 - t;
    vec2 p = mix(pa, pb, t);
    vec2 s = mix(sa, sb, t);
    vec2 size_px = abs((s - 2.0 * vec2(u_inset)) * u_xform.xy) * 0.5 * u_fb_size;
    vec2 corner = mix(vec2(u_inset), s - vec2(u_inset), a_corner);
    vec2 q = p + corner;
    gl_Position = fade <= 0.0 ? vec4(2.0, 2.0, 2.0, 1.0)
                              : vec4(q * u_xform.xy + u_xform.zw, 0.0, 1.0);
    v_col = a_col;
    v_uv = a_corner;
    v_size_px = size_px;
    v_id = gl_InstanceID + u_id_base;
    v_hover = (gl_InstanceID + u_id_base == u_hover) ? 1 : 0;
    v_fade = fade;
}
