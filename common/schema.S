/* Embeds doc/pvmmon-log.rng, NUL-terminated, as the symbol pvmmon__schema_text. */
	.section .rodata
	.global pvmmon__schema_text
	.hidden pvmmon__schema_text /* internal, like the C code compiled -fvisibility=hidden */
	.type pvmmon__schema_text, @object
pvmmon__schema_text:
	.incbin "doc/pvmmon-log.rng"
	.byte 0
	.size pvmmon__schema_text, . - pvmmon__schema_text
	.section .note.GNU-stack,"",@progbits
