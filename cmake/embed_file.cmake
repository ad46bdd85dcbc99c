# Turns a text file into a C header holding it as a NUL-terminated array
# (rune inspect's page: kept as a real .html file, embedded at build time).
#   cmake -DINPUT=file -DOUTPUT=header.h -DNAME=symbol -P embed_file.cmake
file(READ "${INPUT}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
string(REGEX REPLACE "(0x[0-9a-f][0-9a-f],){16}" "\\0\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT} by cmake/embed_file.cmake: do not edit. */\n"
                       "static const char ${NAME}[] = {\n${bytes}0x00};\n")
