// A panel animated by one Playhead (app/panels/playhead.hpp): the four Panel
// hooks every such panel needs (update, busy, timeline, seek) written once.
// The panel owns `play_` as if it were its own member and overrides a hook
// only where its animation differs (the explorer is also busy while a
// picture is pending; tiling's timeline ends at its last sub-tile).
//
// Example: a panel of four stages, stepped at 1 stage/s:
//   class ConvPanel : public PlayheadPanel {
//     public:
//       ConvPanel() : PlayheadPanel("stage", Playhead(0, 3)) { play_.speed = 1; }
//   };
// Recording shows stage 0 .. 3 through timeline() and seek(); busy() keeps
// the window redrawing while play_ plays or glides.
#pragma once

#include "app/panels/panel.hpp"
#include "app/panels/playhead.hpp"

namespace ll::gui {

class PlayheadPanel : public Panel {
  public:
    void update(double dt) override { play_.update(dt); }
    bool busy() const override { return play_.busy(); }
    Timeline timeline() const override { return timeline_of(play_, unit_); }
    void seek(double t) override { seek_at_rest(play_, t); }

  protected:
    // `unit` names a position in messages and recordings ("stage", "step").
    PlayheadPanel(const char* unit, const Playhead& initial) : play_(initial), unit_(unit) {}
    const char* unit() const { return unit_; }
    Playhead play_;

  private:
    const char* unit_;
};

}  // namespace ll::gui
