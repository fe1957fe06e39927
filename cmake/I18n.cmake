# The Chinese message catalog, assets/i18n/zh.json, compiled into the binary
# as a string (app/i18n/tr.cpp parses it once): the window needs no data files
# to speak Chinese. Editing the JSON re-runs this at the next build.
set(LAYOUTLAB_ZH_JSON ${CMAKE_SOURCE_DIR}/assets/i18n/zh.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${LAYOUTLAB_ZH_JSON})
file(READ ${LAYOUTLAB_ZH_JSON} LAYOUTLAB_ZH_JSON_TEXT)
# The engine's text (stage labels, captions, errors; app/i18n/tr_text.hpp).
set(LAYOUTLAB_ZH_CORE_JSON ${CMAKE_SOURCE_DIR}/assets/i18n/zh_core.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${LAYOUTLAB_ZH_CORE_JSON})
file(READ ${LAYOUTLAB_ZH_CORE_JSON} LAYOUTLAB_ZH_CORE_JSON_TEXT)
set(LAYOUTLAB_ZH_CATALOG_CPP ${CMAKE_BINARY_DIR}/generated/zh_catalog.cpp)
configure_file(${CMAKE_SOURCE_DIR}/cmake/zh_catalog.cpp.in ${LAYOUTLAB_ZH_CATALOG_CPP} @ONLY)
