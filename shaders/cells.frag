#version 330 core
// Data cells in their colour; padding cells dark grey, hatched, outlined;
// dimmed cells (Stage::dim) faded towards the canvas; the hovered cell with
// a bright ring.
in vec4 v_col;
in vec2 v_uv;
in vec2 v_size_px;
flat in int v_id;
flat in int v_hover;
in float v_fade;
in float v_dim;

uniform vec4 u_pad_col;      // padding fill
uniform vec4 u_outline_col;  // padding outline / hatch
uniform vec4 u_canvas;       // the canvas behind the cells (dimming target)

out vec4 o_col;

void main() {
    // Distance to the quad edge in pixels (v_size_px is the quad size).
    vec2 px = v_uv * v_size_px;
    float edge = min(min(px.x, v_size_px.x - px.x), min(px.y, v_size_px.y - px.y));
    bool big = min(v_size_px.x, v_size_px.y) >= 6.0;
    vec4 c = v_col;
    if (v_col.a < 0.5) {
        c = u_pad_col;
        float h = mod(gl_FragCoord.x + gl_FragCoord.y, 7.0);
        if (h < 1.6) c = u_outline_col;
        if (big && edge < 1.0) c = u_outline_col;
    }
    c.rgb = mix(c.rgb, u_canvas.rgb, 0.7 * v_dim);
    if (v_hover == 1) {
        // White ring with a thin black rim, visible on light and dark cells.
        float side = min(v_size_px.x, v_size_px.y);
        // Small cells turn white whole (a ring would hide their colour anyway).
        float ring = side < 12.0 ? side : max(2.0, side * 0.2);
        if (edge < ring) c = vec4(1.0, 1.0, 1.0, 1.0);
        if (side >= 12.0 && edge < 1.0) c = vec4(0.0, 0.0, 0.0, 1.0);
    }
    o_col = vec4(c.rgb, v_fade);
}
