// External scanner for the Relay grammar: block comments nest (`/* a /* b */ c */`),
// which no regular expression can match.
#include <tree_sitter/parser.h>

enum TokenType { BLOCK_COMMENT };

void *tree_sitter_relay_external_scanner_create(void) { return 0; }
void tree_sitter_relay_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_relay_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_relay_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

bool tree_sitter_relay_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  if (!valid_symbols[BLOCK_COMMENT]) return false;
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\n' ||
         lexer->lookahead == '\r')
    lexer->advance(lexer, true);
  if (lexer->lookahead != '/') return false;
  advance(lexer);
  if (lexer->lookahead != '*') return false;
  advance(lexer);
  unsigned depth = 1;
  while (depth > 0) {
    if (lexer->eof(lexer)) return false;  // unterminated: an error, as in the lexer (E0004)
    if (lexer->lookahead == '/') {
      advance(lexer);
      if (lexer->lookahead == '*') {
        advance(lexer);
        ++depth;
      }
    } else if (lexer->lookahead == '*') {
      advance(lexer);
      if (lexer->lookahead == '/') {
        advance(lexer);
        --depth;
      }
    } else {
      advance(lexer);
    }
  }
  lexer->result_symbol = BLOCK_COMMENT;
  return true;
}
