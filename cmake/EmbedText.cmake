# Writes OUTPUT, a C++ file that defines SYMBOL (a std::string_view, e.g.
# fuserc::embedded::kPrelude) as the bytes of INPUT after its first comment
# and the blank line that follows it. NAME is INPUT's path in the source
# tree, for the generated file's comment. Run by fuserc_embed_text
# (FusercEmbed.cmake) as `cmake -DINPUT=... -DNAME=... -DSYMBOL=...
# -DOUTPUT=... -P EmbedText.cmake`.
foreach(var INPUT NAME SYMBOL OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "EmbedText.cmake: -D${var}=... is missing")
  endif()
endforeach()

# The first comment: a /* */ block, or consecutive // lines.
file(READ ${INPUT} text)
string(SUBSTRING "${text}" 0 2 opening)
set(end -1)
if(opening STREQUAL "/*")
  string(FIND "${text}" "*/" end)
  if(NOT end EQUAL -1)
    math(EXPR end "${end} + 2")
  endif()
elseif(opening STREQUAL "//")
  string(FIND "${text}" "\n\n" end)
endif()
set(gap "")
if(NOT end EQUAL -1)
  string(SUBSTRING "${text}" ${end} 2 gap)
endif()
if(NOT gap STREQUAL "\n\n")
  message(FATAL_ERROR
          "${NAME}: an embedded file starts with a comment that says what it is for, "
          "then a blank line; that comment is not embedded")
endif()
math(EXPR offset "${end} + 2")

# The rest as character literals, 16 to a line.
file(READ ${INPUT} hex OFFSET ${offset} HEX)
if(hex STREQUAL "")
  message(FATAL_ERROR "${NAME}: nothing follows the first comment")
endif()
string(REGEX REPLACE "(................................)" "\\1\n" hex "${hex}")
string(REGEX REPLACE "\n$" "" hex "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
string(REPLACE "\n" "\n    " bytes "${bytes}")

string(REGEX MATCH "^(.*)::([^:]+)$" qualified "${SYMBOL}")
if(NOT qualified)
  message(FATAL_ERROR "EmbedText.cmake: SYMBOL '${SYMBOL}' is not namespace::name")
endif()
set(namespace ${CMAKE_MATCH_1})
set(variable ${CMAKE_MATCH_2})

set(content "// Generated from ${NAME} by cmake/EmbedText.cmake. Do not edit.
#include <string_view>

namespace {

constexpr char kBytes[] = {
    ${bytes}};

} // namespace

namespace ${namespace} {

extern const std::string_view ${variable};
constinit const std::string_view ${variable}{kBytes, sizeof kBytes};

} // namespace ${namespace}
")
# Rewritten only when it changes, so that nothing recompiles needlessly.
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUTPUT} "${content}")
endif()
