// The .tfs language: a Python 3 subset (DESIGN.md "The language").
//
// Indentation: the lexer below emits NEWLINE tokens carrying the following
// line's leading whitespace; frontend/indent_token_source.cpp turns them into
// INDENT / DEDENT, drops newlines inside brackets and blank lines, and checks
// bracket nesting (the lexer base layer of the front end).
// f-strings are lexed as one STRING token; frontend/fstring.cpp parses their
// replacement fields with this same grammar.
grammar Tfs;

// Every context records its depth (frontend/parse_context.h) so the driver
// can bound recursion on pathologically nested input.
options { contextSuperClass = DepthContext; }

@parser::header { #include "frontend/parse_context.h" }

// MATCH / CASE: the soft keywords `match` and `case` where they begin a
// match statement or one of its case blocks; the token source retags those
// NAMEs (frontend/soft_keywords.cpp), everywhere else they stay names.
tokens { INDENT, DEDENT, MATCH, CASE }

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

file_input : (NEWLINE | stmt)* EOF ;

// Entry point for the expression inside an f-string replacement field.
eval_input : testlist NEWLINE* EOF ;

stmt : simple_stmts | compound_stmt ;

simple_stmts : simple_stmt (';' simple_stmt)* ';'? (NEWLINE | EOF) ;

simple_stmt
    : 'pass'                                              # passStmt
    | 'break'                                             # breakStmt
    | 'continue'                                          # continueStmt
    | 'return' testlist_star?                             # returnStmt
    | 'raise' (test ('from' test)?)?                      # raiseStmt
    | 'global' NAME (',' NAME)*                           # globalStmt
    | 'nonlocal' NAME (',' NAME)*                         # nonlocalStmt
    | 'del' exprlist                                      # delStmt
    | 'assert' test (',' test)?                           # assertStmt
    | 'import' dotted_as_name (',' dotted_as_name)*       # importStmt
    | 'from' import_source 'import'
          ( '*' | '(' import_as_names ')' | import_as_names ) # importFromStmt
    | testlist_star augassign (yield_expr | testlist)     # augAssignStmt
    | testlist_star ':' test ('=' assign_value)?          # annAssignStmt
    | assign_value ('=' assign_value)*                    # exprStmt
    ;

// A statement's expression or an assignment's value; `yield` may stand
// unparenthesized only here (and alone in parentheses, see atom).
assign_value : yield_expr | testlist_star ;
yield_expr : 'yield' ('from' test | testlist_star)? ;

augassign
    : '+=' | '-=' | '*=' | '@=' | '/=' | '%=' | '&=' | '|=' | '^='
    | '<<=' | '>>=' | '**=' | '//='
    ;

dotted_as_name : dotted_name ('as' NAME)? ;
import_as_name : NAME ('as' NAME)? ;
import_as_names : import_as_name (',' import_as_name)* ','? ;
dotted_name : NAME ('.' NAME)* ;
// `from ..pkg.mod import x`: leading dots make the import relative ('...'
// is the ellipsis token, three levels).
import_source : relative_dot* dotted_name | relative_dot+ ;
relative_dot : '.' | '...' ;

compound_stmt
    : if_stmt | while_stmt | for_stmt | try_stmt | with_stmt
    | funcdef | classdef | decorated | match_stmt
    ;

decorated : decorator+ (classdef | funcdef) ;
decorator : '@' test NEWLINE ;

funcdef : 'def' NAME '(' parameters? ')' ('->' test)? ':' block ;

parameters : param (',' param)* ','? ;
param
    : NAME (':' test)? ('=' test)?     # plainParam
    | '*' (NAME (':' test)?)?          # starParam
    | '**' NAME (':' test)?            # doubleStarParam
    | '/'                              # slashParam
    ;

classdef : 'class' NAME ('(' arglist? ')')? ':' block ;

if_stmt : 'if' namedexpr_test ':' block elif_clause* ('else' ':' block)? ;
elif_clause : 'elif' namedexpr_test ':' block ;

while_stmt : 'while' namedexpr_test ':' block ('else' ':' block)? ;

for_stmt : 'for' exprlist 'in' testlist ':' block ('else' ':' block)? ;

try_stmt
    : 'try' ':' block
      ( except_clause+ ('else' ':' block)? ('finally' ':' block)?
      | 'finally' ':' block )
    ;
// `except*` (PEP 654) is `except` then `*`, as in CPython's tokenizer.
except_clause : 'except' (star='*')? (test ('as' NAME)?)? ':' block ;

with_stmt : 'with' with_item (',' with_item)* ':' block ;
with_item : test ('as' expr)? ;

block : simple_stmts | NEWLINE INDENT stmt+ DEDENT ;

// Structural pattern matching (PEP 634). The builder
// (frontend/ast_builder_match.cpp) tells apart what one rule here covers:
// a group from a one-element tuple, a capture from a value or class
// pattern, and checks what CPython's grammar rejects by construction.
match_stmt : MATCH match_subject ':' NEWLINE INDENT case_block+ DEDENT ;
match_subject
    : (namedexpr_test | star_expr) (',' (namedexpr_test | star_expr))* (trailing=',')? ;
case_block : CASE case_patterns ('if' guard=namedexpr_test)? ':' block ;
case_patterns : star_pattern (',' star_pattern)* (trailing=',')? ;
star_pattern : '*' NAME | pattern ;
pattern : or_pattern ('as' NAME)? ;
or_pattern : closed_pattern ('|' closed_pattern)* ;
closed_pattern
    : literal_pattern                                         # literalPattern
    | NAME ('.' NAME)* ('(' class_pattern_args? ')')?         # namePattern
    | '(' (star_pattern (',' star_pattern)* (trailing=',')?)? ')' # parenPattern
    | '[' (star_pattern (',' star_pattern)* ','?)? ']'        # listPattern
    | '{' (mapping_item (',' mapping_item)* ','?)? '}'        # mappingPattern
    ;
literal_pattern
    : '-'? NUMBER (('+' | '-') NUMBER)?
    | STRING+
    | 'None'
    | 'True'
    | 'False'
    ;
mapping_item : '**' NAME | mapping_key ':' pattern ;
mapping_key : literal_pattern | NAME ('.' NAME)+ ;
class_pattern_args : class_pattern_arg (',' class_pattern_arg)* ','? ;
class_pattern_arg : NAME '=' pattern | pattern ;

// ---------------------------------------------------------------------------
// Expressions (CPython's precedence, one rule per level)
// ---------------------------------------------------------------------------

// `target := value` (PEP 572) where CPython's grammar has a
// named_expression: conditions of if/elif/while, call arguments, subscripts,
// list/tuple/set elements and comprehension elements. The target is parsed
// as a test so that `a.b := 1` gets CPython's "cannot use assignment
// expressions with attribute" from the builder, not "invalid syntax".
namedexpr_test : test (':=' test)? ;

test
    : or_test ('if' or_test 'else' test)?
    | lambdef
    ;
test_nocond : or_test | lambdef_nocond ;

lambdef : 'lambda' lambda_params? ':' test ;
lambdef_nocond : 'lambda' lambda_params? ':' test_nocond ;
lambda_params : lambda_param (',' lambda_param)* ','? ;
lambda_param
    : NAME ('=' test)?                 # plainLambdaParam
    | '*' NAME?                        # starLambdaParam
    | '**' NAME                        # doubleStarLambdaParam
    | '/'                              # slashLambdaParam
    ;

or_test : and_test ('or' and_test)* ;
and_test : not_test ('and' not_test)* ;
not_test : 'not' not_test | comparison ;

comparison : expr (comp_op expr)* ;
comp_op
    : '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' | 'is' 'not'
    ;

star_expr : '*' expr ;

expr : xor_expr ('|' xor_expr)* ;
xor_expr : and_expr ('^' and_expr)* ;
and_expr : shift_expr ('&' shift_expr)* ;
shift_expr : arith_expr (shift_op arith_expr)* ;
shift_op : '<<' | '>>' ;
arith_expr : term (arith_op term)* ;
arith_op : '+' | '-' ;
term : factor (term_op factor)* ;
term_op : '*' | '@' | '/' | '%' | '//' ;
factor : unary_op factor | power ;
unary_op : '+' | '-' | '~' ;
power : atom_expr ('**' factor)? ;

atom_expr : atom trailer* ;

atom
    : '(' (yield_expr | testlist_comp)? ')'  # parenAtom
    | '[' testlist_comp? ']'          # listAtom
    | '{' dictorsetmaker? '}'         # dictAtom
    | NAME                            # nameAtom
    | NUMBER                          # numberAtom
    | STRING+                         # stringAtom
    | '...'                           # ellipsisAtom
    | 'None'                          # noneAtom
    | 'True'                          # trueAtom
    | 'False'                         # falseAtom
    ;

testlist_comp
    : (namedexpr_test | star_expr) comp_for
    | (namedexpr_test | star_expr) (',' (namedexpr_test | star_expr))* (trailing=',')?
    ;

trailer
    : '(' arglist? ')'                # callTrailer
    | '[' subscriptlist ']'           # subscriptTrailer
    | '.' NAME                        # attributeTrailer
    ;

subscriptlist : subscript (',' subscript)* (trailing=',')? ;
subscript
    : namedexpr_test                              # indexSubscript
    | lower=test? ':' upper=test? sliceop?        # sliceSubscript
    | star_expr                                   # starSubscript
    ;
sliceop : ':' test? ;

exprlist : (expr | star_expr) (',' (expr | star_expr))* (trailing=',')? ;
testlist : test (',' test)* (trailing=',')? ;
testlist_star : (test | star_expr) (',' (test | star_expr))* (trailing=',')? ;

dictorsetmaker
    : dict_item comp_for                                  # dictComp
    | dict_item (',' dict_item)* ','?                     # dictDisplay
    | (namedexpr_test | star_expr) comp_for               # setComp
    | (namedexpr_test | star_expr) (',' (namedexpr_test | star_expr))* ','? # setDisplay
    ;
dict_item : test ':' test | '**' expr ;

arglist : argument (',' argument)* ','? ;
argument
    : namedexpr_test comp_for # genArgument
    | NAME '=' test           # keywordArgument
    | '**' test               # doubleStarArgument
    | '*' test                # starArgument
    | namedexpr_test          # plainArgument
    ;

comp_for : 'for' exprlist 'in' or_test comp_iter? ;
comp_iter : comp_for | comp_if ;
comp_if : 'if' test_nocond comp_iter? ;

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

STRING
    : STRING_PREFIX? ( SHORT_STRING | LONG_STRING )
    ;

// A triple-quoted string that reaches the end of the file: reported by the
// token source as "unterminated triple-quoted string literal".
UNTERMINATED_LONG_STRING
    : STRING_PREFIX? ( '"""' DQ_ITEM* '"'? '"'? | '\'\'\'' SQ_ITEM* '\''? '\''? ) EOF
    ;

NUMBER
    : ( DEC_INT | HEX_INT | OCT_INT | BIN_INT | FLOAT ) [jJ]?
    ;

NAME : ID_START ID_CONTINUE* ;

// A line break plus the next line's indentation (see the file comment).
NEWLINE : ( '\r'? '\n' | '\r' | '\f' ) [ \t\f]* ;

SKIP_ : ( [ \t\f]+ | COMMENT | LINE_JOINING ) -> skip ;

// Any other character: the parser reports it as invalid syntax.
UNKNOWN_CHAR : . ;

fragment STRING_PREFIX
    : [rR] | [bB] | [fF] | [uU] | [bB][rR] | [rR][bB] | [fF][rR] | [rR][fF]
    ;
fragment SHORT_STRING
    : '\'' ( STRING_ESCAPE | ~[\\\r\n\f'] )* '\''
    | '"' ( STRING_ESCAPE | ~[\\\r\n\f"] )* '"'
    ;
fragment LONG_STRING
    : '\'\'\'' LONG_STRING_ITEM*? '\'\'\''
    | '"""' LONG_STRING_ITEM*? '"""'
    ;
// Items of an unterminated long string: anything but three unescaped quotes.
fragment DQ_ITEM : ~["\\] | STRING_ESCAPE | '"' ( ~["\\] | STRING_ESCAPE ) | '""' ( ~["\\] | STRING_ESCAPE ) ;
fragment SQ_ITEM : ~['\\] | STRING_ESCAPE | '\'' ( ~['\\] | STRING_ESCAPE ) | '\'\'' ( ~['\\] | STRING_ESCAPE ) ;
fragment LONG_STRING_ITEM : STRING_ESCAPE | ~'\\' ;
fragment STRING_ESCAPE : '\\' ( '\r\n' | . ) ;

fragment DEC_INT : [1-9] ('_'? [0-9])* | '0' ('_'? '0')* ;
fragment HEX_INT : '0' [xX] ('_'? [0-9a-fA-F])+ ;
fragment OCT_INT : '0' [oO] ('_'? [0-7])+ ;
fragment BIN_INT : '0' [bB] ('_'? [01])+ ;
fragment DIGITS : [0-9] ('_'? [0-9])* ;
fragment FLOAT
    : DIGITS? '.' DIGITS EXPONENT?
    | DIGITS '.' EXPONENT?
    | DIGITS EXPONENT
    ;
fragment EXPONENT : [eE] [+-]? DIGITS ;

fragment COMMENT : '#' ~[\r\n\f]* ;
fragment LINE_JOINING : '\\' [ \t]* ( '\r'? '\n' | '\r' | '\f' ) ;

fragment ID_START : [a-zA-Z_] | [\u00C0-\u{10FFFF}] ;
fragment ID_CONTINUE : ID_START | [0-9] ;
