"""Parsers: Lark grammars plus transformers that build the pydantic models."""
