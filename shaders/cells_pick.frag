#version 330 core
// Picking: writes instance id + 1 into an integer target (0 = nothing).
flat in int v_id;
in float v_fade;
out int o_id;
void main() {
    if (v_fade < 0.5) discard;
    o_id = v_id + 1;
}
