enum OutputsPlaceholder {}
