/* Embeds doc/pvmmon-log.rng, NUL-terminated, as the symbol pvmmon__schema_text. */
	.section .rodata
	.global pvmmon__schema_text
	.type pvmmon__schema_text, @object
pvmmon__schema_text:
	.incbin "doc/pvmmon-log.rng"
	.byte 0
	.size pvmmon__schema_text, . - pvmmon__schema_text
	.section .note.GNU-stack,"",@progbits
