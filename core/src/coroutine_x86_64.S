/*
 * Context switch for x86-64 System V: saves the callee-saved registers on the current stack, swaps
 * stack pointers, restores the target's registers. It returns through `pop; jmp` rather than `ret`:
 * `ret` into a different coroutine than the one that called mispredicts the return-stack buffer
 * (measured 8 ns vs 2.5 ns per switch, ../shared/research/anchors.md). MXCSR and the x87 control word
 * are process-wide conventions here and are not switched (boost.context does; it costs 2x).
 *
 *   void mn_co_switch(void **save_sp, void *load_sp)
 */
        .text
        .globl  mn_co_switch
        .hidden mn_co_switch
        .type   mn_co_switch, @function
mn_co_switch:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        popq    %rcx
        jmpq    *%rcx
        .cfi_endproc
        .size   mn_co_switch, .-mn_co_switch

/* First frame of a new coroutine: r12 = argument, r13 = entry function (set up by mn_co_init). */
        .globl  mn_co_trampoline
        .hidden mn_co_trampoline
        .type   mn_co_trampoline, @function
mn_co_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        xorl    %ebp, %ebp
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .cfi_endproc
        .size   mn_co_trampoline, .-mn_co_trampoline

        .section .note.GNU-stack,"",@progbits
